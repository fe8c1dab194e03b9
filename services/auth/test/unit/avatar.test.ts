import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR } from '@wayfarer/contracts';
import { avatarUrl, newAvatarKey, parseAvatarKey } from '../../src/domain/avatar';
import { IMAGE_TYPES } from '@wayfarer/storage/image';
import { isRegisterTextField } from '../../src/domain/registration';

const USER = '0b6c3f5e-2a4d-4c1e-9f7a-123456789abc';

describe('avatar keys', () => {
  it('are <userId>/<random>.<ext> and parse back', () => {
    const key = newAvatarKey(USER, IMAGE_TYPES.jpeg);
    expect(key).toMatch(new RegExp(`^${USER}/[a-f0-9]{32}\\.jpg$`));
    const [userId, file] = key.split('/') as [string, string];
    expect(parseAvatarKey(userId, file)).toEqual({ key, type: IMAGE_TYPES.jpeg });
    expect(newAvatarKey(USER, IMAGE_TYPES.png)).not.toBe(newAvatarKey(USER, IMAGE_TYPES.png));
  });

  it.each([
    ['..', 'a'.repeat(32) + '.png'],
    [USER, '../' + 'a'.repeat(32) + '.png'],
    [USER, 'a'.repeat(32) + '.svg'],
    [USER, 'a'.repeat(32) + '.png/..'],
    [USER, '.png'],
    ['not-a-uuid', 'a'.repeat(32) + '.png'],
    [USER, 'A'.repeat(32) + '.png'],
    [USER, 'a'.repeat(32) + '.png%00'],
  ])('rejects %s / %s', (userId, file) => {
    expect(parseAvatarKey(userId, file)).toBeNull();
  });

  it('url is the avatar route or the default avatar', () => {
    expect(avatarUrl(`${USER}/x.png`)).toBe(`/api/avatars/${USER}/x.png`);
    expect(avatarUrl(null)).toBe(DEFAULT_AVATAR);
  });

  it('register accepts exactly name, email and password as text fields', () => {
    expect(['name', 'email', 'password'].every(isRegisterTextField)).toBe(true);
    expect(isRegisterTextField('profilePicture')).toBe(false);
    expect(isRegisterTextField('isAdmin')).toBe(false);
  });
});
