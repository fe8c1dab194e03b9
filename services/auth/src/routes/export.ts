import { INTERNAL_EXPORT_PATH } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import { exportProfile } from '../usecases/export-profile';
import type { AuthContext } from './context';

/**
 * The user's `profile` area of the account export, for trips' `GET /api/export` (an identity
 * proof for the user; the gateway does not route this path).
 */
export function exportRoutes(ctx: AuthContext): void {
  ctx.app.get(INTERNAL_EXPORT_PATH, (request) => exportProfile(ctx, requireUserId(request)));
}
