import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** Where the command reads and writes: the process's own streams, or a test's. */
export interface Terminal {
  stdin: Readable & { isTTY?: boolean };
  stderr: Writable;
}

/** The first line of standard input (`--password-stdin`), without its line break. */
export async function readFirstLine(stdin: Readable): Promise<string> {
  const lines = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

/**
 * Asks on the terminal; `hidden` echoes nothing of the answer (a password is never shown, nor
 * printed back afterwards). The question goes to standard error, so standard output stays clean.
 */
export function ask(terminal: Terminal, question: string, hidden: boolean): Promise<string> {
  const rl = createInterface({ input: terminal.stdin, output: terminal.stderr, terminal: true });
  if (hidden) {
    // readline echoes each key through `_writeToOutput`: print the question only.
    const internal = rl as unknown as { _writeToOutput: (text: string) => void };
    let asked = false;
    internal._writeToOutput = (text: string) => {
      if (!asked) terminal.stderr.write(text);
      asked = true;
    };
  }
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      if (hidden) terminal.stderr.write('\n');
      rl.close();
      resolve(answer);
    });
  });
}
