/**
 * The host check (docs/releasing.md, "The host check"): the packages as a host installs them.
 *
 *   node_modules/.bin/node .ci/host-check.mjs [--update-lock] [--keep] [--skip-build]
 *
 * Builds the workspace, packs every publishable package, installs the tarballs with `npm ci` from
 * the lockfile committed in `.ci/host/` into an empty folder outside the workspace, under this
 * Node (the workspace's Node 24), then runs the host of docs/host-guide.md, taken from the page
 * itself (the blocks marked `<!-- host-check: file -->`): the TypeScript host type-checked with
 * tsc against the packed `.d.ts` files, and both hosts (JavaScript, then TypeScript) started on
 * the embedded database with the journal, the first superuser created the documented ways (the
 * `cms-admin` command, then `bootstrap`), the command refused beside the running host (the data
 * directory's lock), the admin application (`@cms/admin-ui`) loaded from the shell, a sign-in, a
 * post created and listed over HTTP, a stop.
 *
 * Tarballs change with every source change, so the committed lockfile names them at fixed paths
 * (`file:tarballs/<name>.tgz`) and this script writes each tarball's integrity into a copy of it
 * before `npm ci`. A package whose manifest (dependencies, peers, engines, bin) no longer matches
 * the lockfile stops the check: `--update-lock` then runs `npm install` and writes the new lockfile
 * back to `.ci/host/package-lock.json`, for review. `--keep` keeps the scratch folder; `--skip-build`
 * packs the `dist` folders as they are (while working on the check itself, never in CI).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** Every publishable package (docs/releasing.md). */
const PACKAGES = ['@cms/admin-core', '@cms/admin-koa', '@cms/admin-ui', '@cms/journal'];

const ROOT = resolve(import.meta.dirname, '..');
const HOST_DIR = join(ROOT, '.ci', 'host');
const GUIDE = join(ROOT, 'docs', 'host-guide.md');
const PNPM = ['-y', 'pnpm@12.21.0'];
const DEADLINE_MS = 420_000;
const MANIFEST_FIELDS = ['version', 'dependencies', 'peerDependencies', 'engines', 'bin'];

const args = new Set(process.argv.slice(2));
const started = Date.now();
const children = new Set();
const log = (line) => console.log(`[host-check ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

const deadline = setTimeout(() => fail(`not done within ${DEADLINE_MS / 1000} s`), DEADLINE_MS);
deadline.unref();
// `.ci/run`'s outer `timeout`, or Ctrl-C: clean up like any failure (once a blocking step returns).
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => fail(`stopped by ${signal}`));

/** The scratch folder, once made: removed on every way out (unless `--keep`), `fail` included. */
let scratchDir;

function cleanUp() {
  if (!scratchDir) return;
  if (args.has('--keep')) log(`kept ${scratchDir}`);
  else rmSync(scratchDir, { recursive: true, force: true, maxRetries: 3 });
  scratchDir = undefined;
}

/** Stops here: kills the hosts still running, removes the scratch folder, exits with 1. */
function fail(message) {
  for (const child of children) child.kill('SIGKILL');
  console.error(`host check failed: ${message}`);
  try {
    cleanUp();
  } catch (error) {
    console.error(`host check: could not remove ${scratchDir}: ${error.message}`);
  }
  process.exit(1);
}

/** The scratch folder's environment: this Node first on PATH, so npm, npx and the host run under it. */
function hostEnv(scratch, extra = {}) {
  const bin = join(scratch, '.node-bin');
  // The guide's configuration takes a PostgreSQL server from DATABASE_URL: the check is on the embedded database.
  const { DATABASE_URL: _server, ...inherited } = process.env;
  return {
    ...inherited,
    PATH: `${bin}:${process.env.PATH}`,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

function run(command, commandArgs, options) {
  execFileSync(command, commandArgs, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 240_000, ...options });
}

const tarballName = (name) => `${name.replace(/^@/, '').replace('/', '-')}.tgz`;
const sha512 = (file) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
const manifestOf = (tarball) => JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
/** A manifest field as npm writes it into a lockfile: keys sorted, an empty object left out. */
const canonical = (value) => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value ?? null;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? null : Object.fromEntries(entries.map(([key, inner]) => [key, canonical(inner)]));
};
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
/** npm writes `bin` paths without their leading `./` into a lockfile. */
const normalized = (field, value) =>
  field === 'bin' && value ? Object.fromEntries(Object.entries(value).map(([name, path]) => [name, path.replace(/^\.\//, '')])) : value;

/** The blocks of the host guide marked `<!-- host-check: file -->`, by file name. */
function guideFiles() {
  const text = readFileSync(GUIDE, 'utf8');
  const files = new Map();
  for (const match of text.matchAll(/<!-- host-check: ([\w.-]+) -->\n```\w*\n([\s\S]*?)\n```/g)) files.set(match[1], `${match[2]}\n`);
  for (const name of ['install.sh', 'admin.config.ts', 'host.ts', 'tsconfig.json', 'admin.config.js', 'host.js', 'create-superuser.sh']) {
    if (!files.has(name)) fail(`docs/host-guide.md has no block marked <!-- host-check: ${name} -->`);
  }
  return files;
}

function pack(scratch) {
  const tarballs = join(scratch, 'tarballs');
  for (const name of PACKAGES) {
    const into = join(scratch, 'packs', tarballName(name));
    mkdirSync(into, { recursive: true });
    run('npx', [...PNPM, '--filter', name, 'pack', '--pack-destination', into], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const [file] = readdirSync(into).filter((entry) => entry.endsWith('.tgz'));
    if (!file) fail(`pnpm pack wrote no tarball for ${name}`);
    mkdirSync(tarballs, { recursive: true });
    renameSync(join(into, file), join(tarballs, tarballName(name)));
  }
}

/** Writes the tarballs' integrity into the scratch copy of the lockfile; false when a manifest changed. */
function pinTarballs(scratch) {
  const lockFile = join(scratch, 'package-lock.json');
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  let current = true;
  for (const name of PACKAGES) {
    const tarball = join(scratch, 'tarballs', tarballName(name));
    const entry = lock.packages?.[`node_modules/${name}`];
    const manifest = manifestOf(tarball);
    if (!entry || entry.resolved !== `file:tarballs/${tarballName(name)}`) {
      log(`${name} is not in .ci/host/package-lock.json at file:tarballs/${tarballName(name)}`);
      current = false;
      continue;
    }
    for (const field of MANIFEST_FIELDS) {
      if (!same(normalized(field, entry[field]), normalized(field, manifest[field]))) {
        log(`${name}: "${field}" differs from .ci/host/package-lock.json`);
        current = false;
      }
    }
    entry.integrity = sha512(tarball);
  }
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  return current;
}

/**
 * The guide's `npm install` lines name the packages `.ci/host/package.json` installs (there from
 * the tarballs), and a version the guide pins (`name@1.2.3`) is the very version `.ci/host/package.json`
 * names and `.ci/host/package-lock.json` installs: a package or a pin that differs stops the check.
 */
function checkInstallLines(install) {
  const named = new Map();
  for (const line of install.replace(/\\\n/g, ' ').split('\n')) {
    const words = line.replace(/#.*/, '').trim().split(/\s+/);
    const at = words.indexOf('install');
    if (words[0] !== 'npm' || at < 0) continue;
    for (const word of words.slice(at + 1)) {
      if (word.startsWith('-')) continue;
      const match = /^(.+?)(?:@([^@/]*))?$/.exec(word);
      named.set(match[1], match[2]);
    }
  }
  const manifest = JSON.parse(readFileSync(join(HOST_DIR, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(HOST_DIR, 'package-lock.json'), 'utf8'));
  const specs = new Map(Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }));
  const problems = [...named.keys()].filter((name) => !specs.has(name)).concat([...specs.keys()].filter((name) => !named.has(name)));
  for (const [name, pinned] of named) {
    if (pinned === undefined || !specs.has(name)) continue;
    const locked = lock.packages?.[`node_modules/${name}`]?.version;
    if (specs.get(name) !== pinned || locked !== pinned)
      problems.push(`${name}@${pinned} (.ci/host/package.json: ${specs.get(name)}, its lockfile: ${locked ?? 'none'})`);
  }
  if (problems.length > 0) fail(`docs/host-guide.md's npm install lines and .ci/host/package.json differ on: ${problems.join(', ')}`);
}

/** Starts a host file with `node`, resolves with its URL once it prints the ready line. */
function startHost(scratch, file, env) {
  const child = spawn(process.execPath, [file], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file}: no ready line within 60 s:\n${output}`)), 60_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /^Admin ready at (\S+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1], output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited early (code ${code}, signal ${signal}):\n${output}`));
    });
  });
}

async function call(method, url, { token, body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

function expectStatus(response, status, what) {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}: ${response.text.slice(0, 500)}`);
}

/**
 * Loads the admin application (the shell's module script, from the installed `@cms/admin-ui`),
 * signs in as the first superuser, creates a post (its content sanitized by the markup worker) and lists it.
 */
async function exercise(url, password, flavour) {
  const { origin, pathname: prefix } = new URL(url);
  const home = await call('GET', `${origin}/`);
  if (home.status !== 200 || !home.text.includes('Hello from the host')) throw new Error(`GET / is not the host's: ${home.status}`);
  expectStatus(await call('GET', `${url}/api/v1/lang`), 200, 'GET /lang');
  const shell = await call('GET', url);
  expectStatus(shell, 200, 'GET the shell');
  const entry = /<script type="module"[^>]*\ssrc="([^"]+)"/.exec(shell.text)?.[1];
  if (!entry?.startsWith(`${prefix}/assets/_ui/`))
    throw new Error(`the shell loads no module script from ${prefix}/assets/_ui/ (is @cms/admin-ui installed and built?):\n${shell.text}`);
  const script = await call('GET', `${origin}${entry}`);
  expectStatus(script, 200, `GET the application's entry ${entry}`);
  const type = script.headers.get('content-type') ?? '';
  const caching = script.headers.get('cache-control') ?? '';
  if (!type.startsWith('text/javascript') || !caching.includes('immutable'))
    throw new Error(`the application's entry ${entry} is served as "${type}", "Cache-Control: ${caching}"`);
  expectStatus(await call('GET', `${url}/assets/_ui/nope.js`), 404, 'GET a missing file of the application');
  const refused = await call('POST', `${url}/api/v1/auth/login`, { body: { login: 'admin', password: `${password}-wrong` } });
  expectStatus(refused, 401, 'login with a wrong password');
  const login = await call('POST', `${url}/api/v1/auth/login`, { body: { login: 'admin', password } });
  expectStatus(login, 200, 'login');
  const token = login.json().data.access_token;
  const title = `Hello from the ${flavour} host`;
  // Over 16 KiB: sanitized in the worker thread, which must be found in the installed package.
  const content = `# ${title}\n\n${'Words of a long post. '.repeat(1000)}`;
  const created = await call('POST', `${url}/api/v1/cms/journal/posts`, { token, body: { title, slug: `hello-${flavour}`, content } });
  expectStatus(created, 201, 'create a post');
  const list = await call('GET', `${url}/api/v1/cms/journal/posts`, { token });
  expectStatus(list, 200, 'list posts');
  const titles = list.json().data.map((row) => row.title);
  if (!titles.includes(title)) throw new Error(`the list does not show the new post: ${JSON.stringify(titles)}`);
}

function stopHost(host) {
  return new Promise((resolvePromise, reject) => {
    host.child.removeAllListeners('exit');
    const timer = setTimeout(() => reject(new Error(`the host did not stop within 10 s after SIGTERM:\n${host.output()}`)), 10_000);
    host.child.once('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(host.child);
      if (code === 0) resolvePromise();
      else reject(new Error(`the host exited with code ${code}, signal ${signal}:\n${host.output()}`));
    });
    host.child.kill('SIGTERM');
  });
}

async function main() {
  log(`Node ${process.version}; packages: ${PACKAGES.join(', ')}`);
  if (!args.has('--skip-build')) {
    run('npx', [...PNPM, 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    log('built');
  }
  const scratch = mkdtempSync(join(tmpdir(), 'cms-host-check-'));
  scratchDir = scratch;
  if (!relative(ROOT, scratch).startsWith('..')) fail(`the scratch folder ${scratch} is inside the workspace`);
  mkdirSync(join(scratch, '.node-bin'));
  execFileSync('ln', ['-s', process.execPath, join(scratch, '.node-bin', 'node')]);
  try {
    pack(scratch);
    log('packed');
    copyFileSync(join(HOST_DIR, 'package.json'), join(scratch, 'package.json'));
    copyFileSync(join(HOST_DIR, 'package-lock.json'), join(scratch, 'package-lock.json'));
    const current = pinTarballs(scratch);
    if (args.has('--update-lock')) {
      // npm trusts a lockfile's entry of a `file:` tarball as it is (engines, dependencies): drop
      // our packages' entries so that `npm install` reads them from the fresh tarballs.
      const lockFile = join(scratch, 'package-lock.json');
      const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
      for (const name of PACKAGES) delete lock.packages?.[`node_modules/${name}`];
      writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
      run('npm', ['install'], { cwd: scratch, env: hostEnv(scratch) });
      copyFileSync(join(scratch, 'package-lock.json'), join(HOST_DIR, 'package-lock.json'));
      log('wrote .ci/host/package-lock.json: review and commit it');
    } else {
      if (!current) fail('.ci/host/package-lock.json is out of date: run `node_modules/.bin/node .ci/host-check.mjs --update-lock`');
      run('npm', ['ci'], { cwd: scratch, env: hostEnv(scratch) });
    }
    log('installed from the tarballs');
    const files = guideFiles();
    checkInstallLines(files.get('install.sh'));
    files.delete('install.sh');
    for (const [name, text] of files) writeFileSync(join(scratch, name), text);
    run(process.execPath, [join(scratch, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: scratch });
    log('the TypeScript host type-checks against the packed .d.ts files');

    const secret = randomBytes(48).toString('base64url');
    const password = randomBytes(12).toString('base64url');
    const env = hostEnv(scratch, { APP_SECRET: secret, ADMIN_PASSWORD: password, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development' });

    // JavaScript: the command creates the superuser on a fresh folder; the host then finds an admin and bootstraps none.
    const made = execFileSync('bash', ['create-superuser.sh'], { cwd: scratch, env, encoding: 'utf8', timeout: 120_000 });
    if (!made.includes('Created superuser "admin"') || made.includes(password))
      throw new Error(`cms-admin create-superuser printed: ${made}`);
    log('cms-admin create-superuser created the first superuser');
    const js = await startHost(scratch, 'host.js', env);
    if (js.output().includes('Created the superuser')) throw new Error('host.js bootstrapped a second superuser');
    // The data directory is the running host's: the command is refused and writes nothing.
    const beside = spawnSync('bash', ['create-superuser.sh'], { cwd: scratch, env, encoding: 'utf8', timeout: 120_000 });
    if (beside.status !== 1 || !beside.stderr.includes(`is in use by process ${js.child.pid}; stop it first`))
      throw new Error(`cms-admin beside the running host: exit ${beside.status}: ${beside.stdout}${beside.stderr}`);
    log('cms-admin create-superuser beside the running host was refused');
    await exercise(js.url, password, 'javascript');
    await stopHost(js);
    log('host.js: served the admin application, signed in, created and listed a post, stopped');

    // TypeScript: a fresh folder again; `bootstrap` creates the superuser.
    rmSync(join(scratch, '.data'), { recursive: true, force: true });
    const ts = await startHost(scratch, 'host.ts', env);
    if (!ts.output().includes('Created the superuser "admin".'))
      throw new Error(`host.ts did not bootstrap the superuser:\n${ts.output()}`);
    await exercise(ts.url, password, 'typescript');
    await stopHost(ts);
    log('host.ts: bootstrapped, served the admin application, signed in, created and listed a post, stopped');
  } finally {
    cleanUp();
  }
  log('passed');
}

main().then(
  () => process.exit(0),
  (error) => fail(error instanceof Error ? error.message : String(error)),
);
