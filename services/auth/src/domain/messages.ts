/** What auth says to the client, beside contracts' shared messages. */

export const INVALID_LOGIN_MESSAGE = 'Invalid login details.';
export const LOGIN_MESSAGE = 'Login successful.';

export const LOGIN_UNAVAILABLE_MESSAGE =
  'Login is unavailable right now: the store that guards against password guessing (Redis) cannot be reached. Please try again in a moment.';

export const LOGGED_OUT_MESSAGE = 'Logged out.';
export const LOGOUT_UNAVAILABLE_MESSAGE =
  'Logout could not be recorded: the session store (PostgreSQL) is unavailable. The session cookie was removed from this browser; please try again in a moment.';

export const USER_NOT_FOUND_MESSAGE = 'User not found.';
export const AVATAR_NOT_FOUND_MESSAGE = 'Picture not found.';
export const INVALID_AVATAR_ADDRESS_MESSAGE = 'Invalid picture address.';

export const PROFILE_NOT_MULTIPART_MESSAGE =
  'Profile changes must be sent as multipart/form-data (name and/or profilePicture).';
