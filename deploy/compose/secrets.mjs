// The secrets of docker-compose.yml's stack, made once on the Docker host by the one-shot
// `secrets` service before any app starts (plain Node, no dependency: it runs in node:24-slim):
//
// - the session key pair: the private key in auth's key dir (the `sessionkeys` volume, which
//   only auth mounts: an existing one is kept), its public key alone in the gateway's (the
//   `sessionpublickey` volume): a production gateway refuses a key dir holding a private key;
// - the identity proof secret (48 random bytes) in the `proofsecret` volume, which every app
//   mounts read-only and reads through IDENTITY_PROOF_SECRET_FILE (a host's
//   IDENTITY_PROOF_SECRET, when set, goes to the apps instead and wins over the file).
//
// Nothing is ever a default published in this repository. Files belong to the apps' user
// (`node`, uid 1000, in the app image), readable by it alone. Run again, it changes nothing.
// The directories can be moved for tests: SECRETS_PRIVATE_DIR, SECRETS_PUBLIC_DIR, SECRETS_DIR.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const PRIVATE_DIR = process.env.SECRETS_PRIVATE_DIR ?? '/keys/private';
const PUBLIC_DIR = process.env.SECRETS_PUBLIC_DIR ?? '/keys/public';
const SECRET_DIR = process.env.SECRETS_DIR ?? '/secrets';
// service-kit's file names (keys.ts, and the file IDENTITY_PROOF_SECRET_FILE names)
const PRIVATE_KEY = join(PRIVATE_DIR, 'session-ed25519.pem');
const PUBLIC_KEY = join(PUBLIC_DIR, 'session-ed25519.pub.pem');
const PROOF_SECRET = join(SECRET_DIR, 'identity-proof.secret');
const APP_UID = 1000;

/** Writes `content` to `file` unless it exists (atomically: a link fails if it does), for the apps' user. */
function writeOnce(file, content) {
  if (existsSync(file)) return false;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  if (process.getuid?.() === 0) chownSync(tmp, APP_UID, APP_UID);
  try {
    linkSync(tmp, file);
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return true;
}

for (const dir of [PRIVATE_DIR, PUBLIC_DIR, SECRET_DIR]) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) chownSync(dir, APP_UID, APP_UID);
}

const madeKey = writeOnce(
  PRIVATE_KEY,
  generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }),
);
const publicPem = createPublicKey(createPrivateKey(readFileSync(PRIVATE_KEY)))
  .export({ format: 'pem', type: 'spki' })
  .toString();
// always the private key's: a replaced private key gets its public key at the next start
rmSync(PUBLIC_KEY, { force: true });
writeOnce(PUBLIC_KEY, publicPem);
const madeSecret = writeOnce(PROOF_SECRET, randomBytes(48).toString('base64url'));

console.log(
  `secrets: session key pair ${madeKey ? 'generated' : 'kept'}, public key written for the gateway, ` +
    `identity proof secret ${madeSecret ? 'generated' : 'kept'}`,
);
