import { describe, expect, it } from 'vitest';
import { loadGatewayConfig, publicOrigin } from '../src/config';

const env = (over: Record<string, string>) => ({ REDIS_URL: 'redis://127.0.0.1:6379', ...over });

describe('gateway config: PUBLIC_URL', () => {
  it('is the origin of the absolute URLs, whatever form it was given in', () => {
    expect(publicOrigin(loadGatewayConfig(env({ PUBLIC_URL: 'https://wayfarer.example/' })))).toBe(
      'https://wayfarer.example',
    );
    expect(
      publicOrigin(loadGatewayConfig(env({ PUBLIC_URL: 'HTTP://Wayfarer.Example:8443' }))),
    ).toBe('http://wayfarer.example:8443');
  });

  it('defaults outside production to the local gateway, http://localhost:<PORT>', () => {
    expect(publicOrigin(loadGatewayConfig(env({})))).toBe('http://localhost:8080');
    expect(publicOrigin(loadGatewayConfig(env({ PORT: '18080', NODE_ENV: 'test' })))).toBe(
      'http://localhost:18080',
    );
  });

  it('is required when NODE_ENV=production, and the refusal names it', () => {
    expect(() => loadGatewayConfig(env({ NODE_ENV: 'production' }))).toThrow(
      /PUBLIC_URL is missing \(required when NODE_ENV=production/,
    );
    expect(
      loadGatewayConfig(env({ NODE_ENV: 'production', PUBLIC_URL: 'https://w.example' }))
        .PUBLIC_URL,
    ).toBe('https://w.example');
  });

  it('refuses anything but an http(s) origin', () => {
    for (const value of [
      'wayfarer.example',
      'ftp://wayfarer.example',
      'https://wayfarer.example/app',
      'https://wayfarer.example/?x=1',
      'https://wayfarer.example/#top',
      'https://user:pass@wayfarer.example',
    ]) {
      expect(() => loadGatewayConfig(env({ PUBLIC_URL: value })), value).toThrow(
        /PUBLIC_URL is invalid/,
      );
    }
  });
});
