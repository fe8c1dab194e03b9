/** Which left-nav section a protected path belongs to, so sub-pages keep their section lit. */
export type Section = 'trips' | 'feed' | 'bucketlist' | 'friends' | 'messages' | 'atlas';

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
    case 'feed':
      return 'feed';
    case 'friends':
    case 'addFriends':
      return 'friends';
    case 'messages':
      return 'messages';
    case 'atlas':
      return 'atlas';
    default:
      return null;
  }
}
