import { useOutletContext } from 'react-router-dom';

/** The signed-in user's details as the top bar shows them (`GET /api/userDetails`). */
export interface UserDetails {
  username?: string;
  profilePicture?: string | null;
}

/** What the protected layout hands its screens: the user, and a way to show new details. */
export interface AccountOutlet {
  user: UserDetails | null;
  /** The details changed (settings): the top bar and the map's own journals show them at once. */
  setUser: (user: UserDetails) => void;
}

export const useAccount = (): AccountOutlet => useOutletContext<AccountOutlet>();
