import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { retryOnceOnNotFound } from './api';

describe('journal calls retry once on 404 (the trip.created race)', () => {
  it('retries a 404 once after the pause', async () => {
    const call = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new ApiError(404, 'Journal not found.'))
      .mockResolvedValueOnce('ok');
    await expect(retryOnceOnNotFound(call, { delayMs: 1 })).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('gives up after the second 404 and never retries other failures', async () => {
    const notFound = vi.fn().mockRejectedValue(new ApiError(404, 'Journal not found.'));
    await expect(retryOnceOnNotFound(notFound, { delayMs: 1 })).rejects.toMatchObject({
      status: 404,
      serverMessage: 'Journal not found.',
    });
    expect(notFound).toHaveBeenCalledTimes(2);

    const forbidden = vi
      .fn()
      .mockRejectedValue(new ApiError(403, 'Only the owner can edit this journal.'));
    await expect(retryOnceOnNotFound(forbidden, { delayMs: 1 })).rejects.toMatchObject({
      status: 403,
    });
    expect(forbidden).toHaveBeenCalledTimes(1);
  });
});
