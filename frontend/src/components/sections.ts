/** Which left-nav section a protected path belongs to, so sub-pages keep their section lit. */
export type Section = 'trips' | 'bucketlist' | 'friends';

export function sectionFor(pathname: string): Section | null {
  const first = pathname.split('/').filter(Boolean)[0] ?? '';
  switch (first) {
    case '':
    case 'trips':
    case 'trip':
    case 'addTrip':
      return 'trips';
    case 'bucketlist':
      return 'bucketlist';
    case 'friends':
    case 'addFriends':
    case 'messages':
      return 'friends';
    default:
      return null;
  }
}
