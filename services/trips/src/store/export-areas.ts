import {
  ExportAreaDocument,
  ExportAreas,
  INTERNAL_EXPORT_PATH,
  type ExportArea,
} from '@wayfarer/contracts';
import { identityProofHeaders, type Logger } from '@wayfarer/service-kit';

/** The service answering each area of the account export (trips holds the trips itself). */
export type AreaUrls = Readonly<Record<ExportArea, string>>;

/** How long one area may take: small JSON from a service next door. */
export const EXPORT_AREA_TIMEOUT_MS = 10_000;

/** The account export's areas of one user: a document per area, null for one that failed. */
export type AreaDocuments = Record<ExportArea, ExportAreaDocument | null>;

/**
 * The other services' areas of a user's data, each asked at its owner's
 * `INTERNAL_EXPORT_PATH` with an identity proof trips mints for the user: the same proof the
 * gateway mints, with the secret every service shares (`IDENTITY_PROOF_SECRET`), so trips gains
 * no power it did not have (any holder of the secret can already prove any identity). The
 * areas are asked at once; one that fails (down, slow, a non-200, a body that is not its area)
 * is null and logged, the others stand.
 */
export class ExportAreasClient {
  constructor(
    private readonly urls: AreaUrls,
    private readonly secret: Buffer,
    private readonly logger: Logger,
    private readonly timeoutMs = EXPORT_AREA_TIMEOUT_MS,
  ) {}

  async fetchAll(
    identity: { userId: string; clientIp: string },
    signal?: AbortSignal,
  ): Promise<AreaDocuments> {
    const entries = await Promise.all(
      ExportAreas.map(
        async (area) => [area, await this.fetchArea(area, identity, signal)] as const,
      ),
    );
    return Object.fromEntries(entries) as AreaDocuments;
  }

  private async fetchArea(
    area: ExportArea,
    identity: { userId: string; clientIp: string },
    signal?: AbortSignal,
  ): Promise<ExportAreaDocument | null> {
    const headers = identityProofHeaders(
      {
        userId: identity.userId,
        sessionId: null,
        sessionExpires: null,
        clientIp: identity.clientIp,
      },
      { method: 'GET', path: INTERNAL_EXPORT_PATH },
      this.secret,
    );
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await fetch(new URL(INTERNAL_EXPORT_PATH, this.urls[area]), {
        headers,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new Error(`answered ${res.status}`);
      }
      const doc = ExportAreaDocument.parse(await res.json());
      if (doc.area !== area) throw new Error(`answered the area ${doc.area}`);
      return doc;
    } catch (err) {
      if (!signal?.aborted) {
        this.logger.warn({ err, area }, 'an area of the account export is missing');
      }
      return null;
    }
  }
}
