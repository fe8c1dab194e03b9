import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  hasErrors,
  isImageFile,
  isValidEmail,
  validateLogin,
  validateRegister,
} from './validation';

describe('isValidEmail', () => {
  it('accepts ordinary addresses, trimming spaces', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('  first.last+tag@sub.example.org ')).toBe(true);
  });

  it('rejects malformed addresses', () => {
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com']) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });
});

describe('validateLogin', () => {
  it('passes a complete, well-formed form', () => {
    const errors = validateLogin({ email: 'ada@example.com', password: 'secret' });
    expect(errors).toEqual({});
    expect(hasErrors(errors)).toBe(false);
  });

  it('requires email and password', () => {
    expect(validateLogin({ email: ' ', password: '' })).toEqual({
      email: MESSAGES.emailRequired,
      password: MESSAGES.passwordRequired,
    });
  });

  it('checks the email format', () => {
    const errors = validateLogin({ email: 'not-an-email', password: 'x' });
    expect(errors).toEqual({ email: MESSAGES.emailFormat });
    expect(hasErrors(errors)).toBe(true);
  });
});

describe('isImageFile', () => {
  it('goes by MIME type when there is one', () => {
    expect(isImageFile({ name: 'me.png', type: 'image/png' })).toBe(true);
    expect(isImageFile({ name: 'me.jpg', type: 'IMAGE/JPEG' })).toBe(true);
    expect(isImageFile({ name: 'cv.pdf', type: 'application/pdf' })).toBe(false);
    // a misleading extension does not help a non-image type
    expect(isImageFile({ name: 'evil.png', type: 'text/html' })).toBe(false);
  });

  it('falls back to the extension when the type is empty', () => {
    expect(isImageFile({ name: 'photo.HEIC', type: '' })).toBe(true);
    expect(isImageFile({ name: 'notes.txt', type: '' })).toBe(false);
    expect(isImageFile({ name: 'png', type: '' })).toBe(false);
  });
});

describe('validateRegister', () => {
  const valid = { name: 'Ada', email: 'ada@example.com', password: 'secret' };

  it('passes without a profile picture (it is optional)', () => {
    expect(validateRegister(valid)).toEqual({});
    expect(validateRegister({ ...valid, profilePicture: null })).toEqual({});
  });

  it('passes with an image profile picture', () => {
    expect(
      validateRegister({ ...valid, profilePicture: { name: 'me.webp', type: 'image/webp' } }),
    ).toEqual({});
  });

  it('requires name, email and password', () => {
    expect(validateRegister({ name: '  ', email: '', password: '' })).toEqual({
      name: MESSAGES.nameRequired,
      email: MESSAGES.emailRequired,
      password: MESSAGES.passwordRequired,
    });
  });

  it('checks the email format', () => {
    expect(validateRegister({ ...valid, email: 'ada@' })).toEqual({ email: MESSAGES.emailFormat });
  });

  it('rejects a non-image profile picture', () => {
    expect(
      validateRegister({ ...valid, profilePicture: { name: 'cv.pdf', type: 'application/pdf' } }),
    ).toEqual({ profilePicture: MESSAGES.pictureNotImage });
  });
});
