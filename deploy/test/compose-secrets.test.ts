import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadIdentityProofSecret } from '@wayfarer/service-kit';
import { loadSigningKey, loadVerifyKey, publicKeyPem } from '@wayfarer/service-kit/keys';

/**
 * docker-compose.yml's `secrets` service (deploy/compose/secrets.mjs), run here with its
 * directories moved: what it makes is what the apps, in production, accept.
 */
const script = join(dirname(fileURLToPath(import.meta.url)), '../compose/secrets.mjs');

function run(dirs: { privateDir: string; publicDir: string; secretDir: string }): string {
  return execFileSync(process.execPath, [script], {
    env: {
      ...process.env,
      SECRETS_PRIVATE_DIR: dirs.privateDir,
      SECRETS_PUBLIC_DIR: dirs.publicDir,
      SECRETS_DIR: dirs.secretDir,
    },
    encoding: 'utf8',
  });
}

describe('deploy/compose/secrets.mjs', () => {
  const root = mkdtempSync(join(tmpdir(), 'wayfarer-compose-secrets-'));
  const dirs = {
    privateDir: join(root, 'private'),
    publicDir: join(root, 'public'),
    secretDir: join(root, 'secrets'),
  };
  const production = 'production';

  it('makes a key pair and a proof secret the apps accept in production', () => {
    expect(run(dirs)).toMatch(/session key pair generated.*identity proof secret generated/);
    // auth signs with the private key of its dir; the gateway verifies with the public one alone
    const signing = loadSigningKey({ SESSION_KEY_DIR: dirs.privateDir, NODE_ENV: production });
    const verify = loadVerifyKey({ SESSION_KEY_DIR: dirs.publicDir, NODE_ENV: production });
    expect(publicKeyPem(verify)).toBe(publicKeyPem(signing));
    // the private key's dir would be refused by a production gateway
    expect(() => loadVerifyKey({ SESSION_KEY_DIR: dirs.privateDir, NODE_ENV: production })).toThrow(
      /holds the session private key/,
    );
    const secret = loadIdentityProofSecret({
      IDENTITY_PROOF_SECRET_FILE: join(dirs.secretDir, 'identity-proof.secret'),
      NODE_ENV: production,
    });
    expect(secret.length).toBe(64); // 48 random bytes, base64url
    for (const file of [
      join(dirs.privateDir, 'session-ed25519.pem'),
      join(dirs.secretDir, 'identity-proof.secret'),
    ]) {
      expect(statSync(file).mode & 0o077, file).toBe(0);
    }
  });

  it('keeps what it made when run again (every `docker compose up`)', () => {
    const key = readFileSync(join(dirs.privateDir, 'session-ed25519.pem'), 'utf8');
    const secret = readFileSync(join(dirs.secretDir, 'identity-proof.secret'), 'utf8');
    expect(run(dirs)).toMatch(/session key pair kept.*identity proof secret kept/);
    expect(readFileSync(join(dirs.privateDir, 'session-ed25519.pem'), 'utf8')).toBe(key);
    expect(readFileSync(join(dirs.secretDir, 'identity-proof.secret'), 'utf8')).toBe(secret);
  });
});
