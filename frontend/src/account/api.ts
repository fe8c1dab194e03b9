import {
  AccountMessages,
  type AccountMessageResponse,
  type UserDetailsResponse,
} from '@wayfarer/contracts';
import { ApiError, apiFetch } from '../api/client';

/**
 * The account API (auth): `PATCH /api/userDetails` (multipart `name` and/or
 * `profilePicture`, answering the details as stored), `POST /api/password` and
 * `DELETE /api/account` (JSON, answering `{message}`).
 */

export function updateProfile(changes: {
  name?: string;
  picture?: File;
}): Promise<UserDetailsResponse> {
  const body = new FormData();
  if (changes.name !== undefined) body.append('name', changes.name);
  if (changes.picture) body.append('profilePicture', changes.picture, changes.picture.name);
  return apiFetch<UserDetailsResponse>('/api/userDetails', { method: 'PATCH', body });
}

export function changePassword(
  currentPassword: string,
  newPassword: string,
): Promise<AccountMessageResponse> {
  return apiFetch<AccountMessageResponse>('/api/password', {
    method: 'POST',
    json: { currentPassword, newPassword },
  });
}

export function closeAccount(password: string): Promise<AccountMessageResponse> {
  return apiFetch<AccountMessageResponse>('/api/account', {
    method: 'DELETE',
    json: { password },
  });
}

/** Auth refused the password given (400 with `AccountMessages.wrongPassword`). */
export function isWrongPassword(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 400 &&
    error.serverMessage === AccountMessages.wrongPassword
  );
}
