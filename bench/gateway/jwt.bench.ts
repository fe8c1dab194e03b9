/**
 * The session token check: the gateway verifies session cookies with `@fastify/jwt`
 * (the design card's library), registered once with the public key and its options pinned
 * (`gateway/src/session.ts`). Against fast-jwt's own verifier built with the same options (what
 * the gateway called directly before), per signature check: budget within 1.1x.
 *
 * Info beside it: the same `@fastify/jwt` called with options per call (what made it slow
 * once: a verifier built per call), and a warm token through the gateway's verifier
 * (kept by its text: a Map lookup, no signature check) against fast-jwt's own cache.
 *
 * Each check gets a token it has not seen (signature checked every time), the sides interleaved
 * (ROUNDS rounds of CALLS calls each), medians of the per-call times. One process, no I/O.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import Fastify from 'fastify';
import { SESSION_AUDIENCE, SESSION_ISSUER, type SessionClaims } from '@wayfarer/contracts';
import { registerSessionVerifier, SESSION_VERIFY_OPTIONS } from '@wayfarer/gateway';
import { recordBudget } from '../lib/results';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 1000);

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
const sign = createSigner({
  key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  algorithm: 'EdDSA',
  iss: SESSION_ISSUER,
  aud: SESSION_AUDIENCE,
  expiresIn: 600_000,
});
const tokens = () => Array.from({ length: CALLS }, () => sign({ sub: 'u', jti: randomUUID() }));

const fastJwt = createVerifier({ key: publicPem, ...SESSION_VERIFY_OPTIONS }) as (
  t: string,
) => SessionClaims;
const fastJwtCached = createVerifier({
  key: publicPem,
  ...SESSION_VERIFY_OPTIONS,
  cache: true,
}) as (t: string) => SessionClaims;

const app = Fastify();
const gatewayVerify = await registerSessionVerifier(app, publicPem);
await app.ready();
const pluginVerify = (token: string) => app.jwt.verify<SessionClaims>(token);
const pluginPerCallOptions = (token: string) =>
  app.jwt.verify<SessionClaims>(token, { ...SESSION_VERIFY_OPTIONS });

/**
 * CPU µs per call of `verify` over `input` (the process's CPU time: on a shared machine the
 * wall clock also counts the time other processes had the core).
 */
function perCall(verify: (token: string) => SessionClaims, input: string[]): number {
  const start = process.cpuUsage();
  for (const token of input) {
    if (verify(token).sub !== 'u') throw new Error('wrong claims');
  }
  const { user, system } = process.cpuUsage(start);
  return (user + system) / input.length;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const sides = {
  fastJwt: (input: string[]) => perCall(fastJwt, input),
  plugin: (input: string[]) => perCall(pluginVerify, input),
  perCallOptions: (input: string[]) => perCall(pluginPerCallOptions, input),
  // warm: the same token every call, after one check
  gatewayWarm: (input: string[]) => perCall(gatewayVerify, Array(input.length).fill(input[0])),
  fastJwtCacheWarm: (input: string[]) => perCall(fastJwtCached, Array(input.length).fill(input[0])),
};
type Side = keyof typeof sides;
const runs = Object.fromEntries(Object.keys(sides).map((s) => [s, [] as number[]])) as Record<
  Side,
  number[]
>;
for (const side of Object.keys(sides) as Side[]) sides[side](tokens()); // warm-up (JIT)
for (let round = 0; round < ROUNDS; round++) {
  for (const side of Object.keys(sides) as Side[]) runs[side].push(sides[side](tokens()));
}
const us = (side: Side) => Math.round(median(runs[side]) * 100) / 100;
const note = `${ROUNDS} interleaved rounds of ${CALLS} calls, median CPU µs per call; EdDSA, a token not seen before each call`;
recordBudget({
  name: 'session token check: @fastify/jwt registered once (the gateway) / fast-jwt verifier, per signature check',
  figure: us('plugin'),
  baseline: us('fastJwt'),
  unit: 'µs',
  budget: { ratioAtMost: 1.1 },
  note,
});
recordBudget({
  name: 'info: @fastify/jwt with options on every call / registered once, per signature check',
  figure: us('perCallOptions'),
  baseline: us('plugin'),
  unit: 'µs',
  budget: { none: true },
  note: `${note}; a fast-jwt verifier built per call`,
});
recordBudget({
  name: "info: a warm token through the gateway's verifier (kept by its text) / fast-jwt's cache",
  figure: us('gatewayWarm'),
  baseline: us('fastJwtCacheWarm'),
  unit: 'µs',
  budget: { none: true },
  note: `${ROUNDS} interleaved rounds of ${CALLS} calls of one token, median CPU µs per call`,
});
await app.close();
