import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config';

/**
 * Session signing keys (Ed25519). In production both come from env as PEM
 * (`SESSION_PRIVATE_KEY` for auth, `SESSION_PUBLIC_KEY` for the gateway), or from key dirs:
 * auth's holds the private key (`session-ed25519.pem`, generated on first start when missing),
 * the gateway's only the public one (`session-ed25519.pub.pem`): a production gateway refuses a
 * key dir holding the private key (it must never be able to sign a session). For local
 * development one key dir serves both, a key pair generated on first start and reused.
 */
export interface SessionKeyEnv {
  SESSION_PRIVATE_KEY?: string;
  SESSION_PUBLIC_KEY?: string;
  SESSION_KEY_DIR?: string;
  NODE_ENV?: string;
}

/** The private key's file in a key dir (auth's; and the dev dir every process shares). */
export const SESSION_PRIVATE_KEY_FILE = 'session-ed25519.pem';
/** The public key's file in a key dir (what a production gateway's key dir holds, alone). */
export const SESSION_PUBLIC_KEY_FILE = 'session-ed25519.pub.pem';
const DEV_KEY_FILE = SESSION_PRIVATE_KEY_FILE;

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

/**
 * The gateway's key. In production a SESSION_KEY_DIR holding the private key is refused (even
 * beside SESSION_PUBLIC_KEY: the gateway must not have it), and the dir's public key file is
 * read, never generated; locally the public key is derived from the shared dev dir.
 */
export function loadVerifyKey(env: SessionKeyEnv): KeyObject {
  const production = env.NODE_ENV === 'production';
  const dir = env.SESSION_KEY_DIR;
  if (production && dir && existsSync(join(dir, SESSION_PRIVATE_KEY_FILE))) {
    throw new ConfigError([
      `SESSION_KEY_DIR (${dir}) holds the session private key (${SESSION_PRIVATE_KEY_FILE}): ` +
        'refused when NODE_ENV=production, the gateway must only verify sessions. Give it ' +
        `SESSION_PUBLIC_KEY (PEM), or a key dir holding only ${SESSION_PUBLIC_KEY_FILE}; ` +
        'the private key goes to auth alone.',
    ]);
  }
  if (env.SESSION_PUBLIC_KEY) return createPublicKey(pem(env.SESSION_PUBLIC_KEY));
  if (dir && production) {
    const file = join(dir, SESSION_PUBLIC_KEY_FILE);
    try {
      return createPublicKey(readFileSync(file));
    } catch (err) {
      throw new ConfigError([
        `SESSION_KEY_DIR is invalid: cannot read the session public key ${file} (${(err as Error).message})`,
      ]);
    }
  }
  if (dir) return createPublicKey(ensureDevPrivateKey(dir));
  throw new Error('SESSION_PUBLIC_KEY (PEM) or SESSION_KEY_DIR (local dev keys) must be set');
}

export function publicKeyPem(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return pub.export({ format: 'pem', type: 'spki' }).toString();
}
