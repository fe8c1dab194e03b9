import { describe, expect, it } from 'vitest';
import { AuthLimits, ImageTypes, RegisterFields, RegisterMessages } from '@wayfarer/contracts';
import {
  MESSAGES,
  PASSWORD_HINT,
  PICTURE_ACCEPT,
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
    expect(isImageFile({ name: 'photo.JPEG', type: '' })).toBe(true);
    expect(isImageFile({ name: 'notes.txt', type: '' })).toBe(false);
    expect(isImageFile({ name: 'png', type: '' })).toBe(false);
  });

  it('refuses the image types auth refuses, and accepts exactly the ones it decodes', () => {
    for (const type of ['image/svg+xml', 'image/heic', 'image/bmp', 'image/avif', 'image/tiff']) {
      expect(isImageFile({ name: 'me.img', type }), type).toBe(false);
    }
    expect(isImageFile({ name: 'photo.HEIC', type: '' })).toBe(false);
    expect(isImageFile({ name: 'logo.svg', type: '' })).toBe(false);
    for (const type of ImageTypes) expect(isImageFile({ name: 'me.img', type }), type).toBe(true);
    expect(PICTURE_ACCEPT.split(',')).toEqual([...ImageTypes]);
  });
});

describe('validateRegister', () => {
  const valid = { name: 'Ada', email: 'ada@example.com', password: 'long enough' };

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

  it("rejects a non-image profile picture with the server's words", () => {
    expect(
      validateRegister({ ...valid, profilePicture: { name: 'cv.pdf', type: 'application/pdf' } }),
    ).toEqual({ profilePicture: 'Profile picture must be a PNG, JPEG, GIF or WebP image.' });
    expect(
      validateRegister({ ...valid, profilePicture: { name: 'me.svg', type: 'image/svg+xml' } }),
    ).toEqual({ profilePicture: RegisterMessages.pictureNotImage });
  });

  it("rejects a profile picture over auth's size limit, not one at it", () => {
    const picture = (size: number) => ({ name: 'me.png', type: 'image/png', size });
    expect(
      validateRegister({ ...valid, profilePicture: picture(AuthLimits.profilePictureMaxBytes) }),
    ).toEqual({});
    expect(
      validateRegister({
        ...valid,
        profilePicture: picture(AuthLimits.profilePictureMaxBytes + 1),
      }),
    ).toEqual({ profilePicture: 'Profile picture must be at most 5 MB.' });
  });

  it("applies the server's password length, and shows its minimum", () => {
    const short = 'x'.repeat(AuthLimits.passwordMin - 1);
    expect(validateRegister({ ...valid, password: short })).toEqual({
      password: 'Password must be at least 8 characters.',
    });
    expect(validateRegister({ ...valid, password: 'x'.repeat(AuthLimits.passwordMin) })).toEqual(
      {},
    );
    expect(
      validateRegister({ ...valid, password: 'x'.repeat(AuthLimits.passwordMax + 1) }),
    ).toEqual({
      password: `Password must be at most ${AuthLimits.passwordMax} characters.`,
    });
    expect(PASSWORD_HINT).toBe('At least 8 characters.');
  });

  it('agrees with RegisterFields, the schema auth parses the form with', () => {
    const cases = [
      valid,
      { ...valid, name: 'x'.repeat(AuthLimits.nameMax + 1) },
      { ...valid, email: `${'a'.repeat(250)}@example.com` },
      { ...valid, email: 'ada@example' },
      { ...valid, password: 'short' },
    ];
    for (const input of cases) {
      const client = hasErrors(validateRegister(input));
      expect(client, JSON.stringify(input).slice(0, 60)).toBe(
        !RegisterFields.safeParse(input).success,
      );
    }
  });
});
