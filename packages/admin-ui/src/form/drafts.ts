import type { Values } from './state.ts';

/**
 * Drafts of changed forms in the browser's local storage (docs/admin-ui.md, "Edits are never
 * lost"): per admin and record, written while a form holds changes, offered back when the form
 * opens again, gone after a day, after a save or a discard, and at sign-out. Passwords are never
 * in them (the form leaves those fields out). A draft is only ever read under its own admin's key,
 * so another admin is never offered it; drafts past their day are swept when a page starts, at
 * every sign-in and hourly, whoever wrote them.
 */

const PREFIX = 'cms-admin:draft:';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Draft {
  /** When it was written (ms since the epoch). */
  savedAt: number;
  values: Values;
  /** The version the form had read (`meta.etag`), so a restored draft still merges on save. */
  etag: string | undefined;
  /** The served values the draft was made against: a restore is a merge, not an overwrite. */
  base: Values;
  sessionKey: string;
  /** Valueless fields that held deferred work under the session key (relation manager, uploads). */
  pending?: string[];
}

const expired = (draft: Partial<Draft> | null, now: number) =>
  typeof draft?.savedAt !== 'number' || now - draft.savedAt > DAY_MS || typeof draft.values !== 'object';

const keyOf = (admin: number, ctl: string, record: string) => `${PREFIX}${admin}:${ctl}:${record}`;

export function readDraft(admin: number, ctl: string, record: string): Draft | undefined {
  const key = keyOf(admin, ctl, record);
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return undefined;
    const draft = JSON.parse(raw) as Draft;
    if (expired(draft, Date.now())) {
      localStorage.removeItem(key);
      return undefined;
    }
    return draft;
  } catch {
    return undefined;
  }
}

export function writeDraft(admin: number, ctl: string, record: string, draft: Draft): void {
  try {
    localStorage.setItem(keyOf(admin, ctl, record), JSON.stringify(draft));
  } catch {
    // A full or refused storage loses the draft, not the form.
  }
}

export function removeDraft(admin: number, ctl: string, record: string): void {
  localStorage.removeItem(keyOf(admin, ctl, record));
}

/**
 * Every draft of this browser past its day (or unreadable), whichever admin wrote it: an admin whose
 * session ended without a sign-out leaves nothing behind longer than a day. Another admin's draft
 * within its day stays, for when that admin signs in again (sign-out removes it).
 */
export function sweepDrafts(): void {
  const now = Date.now();
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    let draft: Partial<Draft> | null = null;
    try {
      draft = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<Draft> | null;
    } catch {
      // Unreadable: swept.
    }
    if (expired(draft, now)) localStorage.removeItem(key);
  }
}

/** At sign-out: every draft of this browser, whoever wrote it, and expired ones on the way. */
export function removeAllDrafts(): void {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX)) localStorage.removeItem(key);
  }
}
