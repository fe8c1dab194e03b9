import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config';
import {
  ensureDevPrivateKey,
  loadSigningKey,
  loadVerifyKey,
  publicKeyPem,
  SESSION_PRIVATE_KEY_FILE,
  SESSION_PUBLIC_KEY_FILE,
} from '../src/keys';

const keyDir = () => mkdtempSync(join(tmpdir(), 'wayfarer-keys-'));
const pair = () => generateKeyPairSync('ed25519');
const pemOf = (key: ReturnType<typeof pair>['publicKey']) =>
  key.export({ format: 'pem', type: 'spki' }).toString();

describe('the gateway key in production', () => {
  it('refuses a key dir holding the private key, naming SESSION_KEY_DIR', () => {
    const dir = keyDir();
    ensureDevPrivateKey(dir); // the local stack's shared dir, or compose's former volume
    for (const env of [
      { NODE_ENV: 'production', SESSION_KEY_DIR: dir },
      // even beside a public key: the private key must not be mounted into the gateway at all
      { NODE_ENV: 'production', SESSION_KEY_DIR: dir, SESSION_PUBLIC_KEY: pemOf(pair().publicKey) },
    ]) {
      expect(() => loadVerifyKey(env)).toThrow(ConfigError);
      expect(() => loadVerifyKey(env)).toThrow(
        new RegExp(
          `SESSION_KEY_DIR \\(${dir}\\) holds the session private key \\(${SESSION_PRIVATE_KEY_FILE}\\)`,
        ),
      );
    }
  });

  it('reads a key dir holding only the public key, and never generates one', () => {
    const { publicKey } = pair();
    const dir = keyDir();
    writeFileSync(join(dir, SESSION_PUBLIC_KEY_FILE), pemOf(publicKey));
    const key = loadVerifyKey({ NODE_ENV: 'production', SESSION_KEY_DIR: dir });
    expect(publicKeyPem(key)).toBe(pemOf(publicKey));

    const empty = keyDir();
    expect(() => loadVerifyKey({ NODE_ENV: 'production', SESSION_KEY_DIR: empty })).toThrow(
      /SESSION_KEY_DIR is invalid: cannot read the session public key/,
    );
    rmSync(empty, { recursive: true });
  });

  it('takes SESSION_PUBLIC_KEY (PEM, with literal \\n as env files write it)', () => {
    const { publicKey } = pair();
    const escaped = pemOf(publicKey).replace(/\n/g, '\\n');
    expect(
      publicKeyPem(loadVerifyKey({ NODE_ENV: 'production', SESSION_PUBLIC_KEY: escaped })),
    ).toBe(pemOf(publicKey));
  });
});

describe('keys outside production', () => {
  it('share one generated dev key pair between auth (signs) and the gateway (verifies)', () => {
    const dir = keyDir();
    const signing = loadSigningKey({ SESSION_KEY_DIR: dir });
    expect(publicKeyPem(loadVerifyKey({ SESSION_KEY_DIR: dir }))).toBe(publicKeyPem(signing));
  });

  it('let auth generate its private key in its key dir in production too', () => {
    const dir = keyDir();
    const signing = loadSigningKey({ SESSION_KEY_DIR: dir, NODE_ENV: 'production' });
    expect(signing.type).toBe('private');
    expect(publicKeyPem(ensureDevPrivateKey(dir))).toBe(publicKeyPem(signing));
  });
});
