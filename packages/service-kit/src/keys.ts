import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Session signing keys (Ed25519). In production both come from env as PEM
 * (`SESSION_PRIVATE_KEY` for auth, `SESSION_PUBLIC_KEY` for the gateway). For local
 * development a key pair is generated on first start into an ignored folder and reused.
 */
export interface SessionKeyEnv {
  SESSION_PRIVATE_KEY?: string;
  SESSION_PUBLIC_KEY?: string;
  SESSION_KEY_DIR?: string;
}

const DEV_KEY_FILE = 'session-ed25519.pem';

/** Reads the dev private key from `dir`, creating it atomically if no process has yet. */
export function ensureDevPrivateKey(dir: string): KeyObject {
  const file = join(dir, DEV_KEY_FILE);
  try {
    return createPrivateKey(readFileSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  try {
    linkSync(tmp, file); // atomic: fails if another process won the race
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return createPrivateKey(readFileSync(file));
}

function pem(value: string): string {
  // env files often carry PEMs with literal "\n"
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

export function loadSigningKey(env: SessionKeyEnv): KeyObject {
  if (env.SESSION_PRIVATE_KEY) return createPrivateKey(pem(env.SESSION_PRIVATE_KEY));
  if (env.SESSION_KEY_DIR) return ensureDevPrivateKey(env.SESSION_KEY_DIR);
  throw new Error('SESSION_PRIVATE_KEY (PEM) or SESSION_KEY_DIR (local dev keys) must be set');
}

export function loadVerifyKey(env: SessionKeyEnv): KeyObject {
  if (env.SESSION_PUBLIC_KEY) return createPublicKey(pem(env.SESSION_PUBLIC_KEY));
  if (env.SESSION_KEY_DIR) return createPublicKey(ensureDevPrivateKey(env.SESSION_KEY_DIR));
  throw new Error('SESSION_PUBLIC_KEY (PEM) or SESSION_KEY_DIR (local dev keys) must be set');
}

export function publicKeyPem(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return pub.export({ format: 'pem', type: 'spki' }).toString();
}
