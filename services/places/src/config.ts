import { z } from 'zod';
import { commonEnv, identityProofEnv } from '@wayfarer/service-kit';

/** places' environment (validated at start; every problem is named). No stores. */
export const PlacesEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4007),
});
export type PlacesEnv = z.infer<typeof PlacesEnv>;
