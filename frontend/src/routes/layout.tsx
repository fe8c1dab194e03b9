import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  NavLink,
  Outlet,
  redirect,
  useLoaderData,
  useLocation,
  useNavigate,
  type LoaderFunctionArgs,
} from 'react-router-dom';
import type { AccountOutlet, UserDetails } from '../account/useAccount';
import { apiFetch } from '../api/client';
import { clearUserId } from '../auth/session';
import { Brand } from '../components/Logo';
import { ProfileMenu } from '../components/ProfileMenu';
import { Toast } from '../components/Toast';
import {
  AtlasIcon,
  BucketIcon,
  ChatIcon,
  FeedIcon,
  FriendsIcon,
  TripsIcon,
} from '../components/icons';
import { sectionFor, type Section } from '../components/sections';
import { MapMarkersProvider } from '../map/MapContext';
import { MapPanel } from '../map/MapPanel';
import { MarkerPhotosContext, type MarkerPhotosHook } from '../map/MarkerPhotos';
import { useTripPhotos } from '../trips/useTripPhotos';
import { useFriendPhotos } from '../friends/useFriendPhotos';
import { renderJournal } from '../journal/renderJournal';
import { renderItinerary } from '../bucketlist/renderItinerary';
import { LiveProvider } from '../live/LiveProvider';
import { LiveBell, LiveTitle, NavCount, useNavCounts } from '../notifications/components/LiveParts';
import '../styles/layout.css';

/**
 * Guards every protected screen: a session check against the gateway; without a valid
 * session the user goes to /home. User details are fetched alongside (a failure there only
 * means the default avatar is shown).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const details = apiFetch<UserDetails>('/api/userDetails', { signal: request.signal }).catch(
    () => null,
  );
  try {
    await apiFetch('/api/protected', { signal: request.signal });
  } catch {
    return redirect('/home');
  }
  return { user: await details };
}

const LOGOUT_FAILED = 'An error occurred during logout. Please try again.';

const NAV: {
  to: string;
  label: string;
  section: Section;
  icon: ReactNode;
  count?: 'friends' | 'messages';
}[] = [
  { to: '/trips', label: 'Trips', section: 'trips', icon: <TripsIcon /> },
  { to: '/feed', label: 'Feed', section: 'feed', icon: <FeedIcon /> },
  { to: '/bucketlist', label: 'Bucket List', section: 'bucketlist', icon: <BucketIcon /> },
  { to: '/atlas', label: 'Atlas', section: 'atlas', icon: <AtlasIcon /> },
  {
    to: '/friends',
    label: 'Friends',
    section: 'friends',
    icon: <FriendsIcon />,
    count: 'friends',
  },
  {
    to: '/messages',
    label: 'Messages',
    section: 'messages',
    icon: <ChatIcon />,
    count: 'messages',
  },
];

/** The left navigation, each entry with its count when it has one. */
function SideNav({ section }: { section: Section | null }) {
  const counts = useNavCounts();
  return (
    <nav className="side-nav" aria-label="Main">
      <ul>
        {NAV.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              className={({ isActive }) =>
                `nav-link${isActive || section === item.section ? ' is-active' : ''}`
              }
            >
              {item.icon}
              <span>{item.label}</span>
              {item.count ? <NavCount count={counts[item.count]} label={item.count} /> : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The photos an info window shows: pins made from summaries (own trips, friends' trips) name
 * only the first, and load every photo when their window opens. Both hooks run for every
 * marker (hooks in a fixed order); each leaves markers that are not its kind as they are.
 */
const useLoadedPhotos: MarkerPhotosHook = (marker) => {
  const tripPhotos = useTripPhotos(marker);
  const friendPhotos = useFriendPhotos(marker);
  return marker.kind === 'friend' ? friendPhotos : tripPhotos;
};

export function Component() {
  const loaded = useLoaderData<typeof loader>().user;
  // the details as shown: the loader's, or what the settings screen just saved
  const [user, setUser] = useState<UserDetails | null>(loaded);
  useEffect(() => setUser(loaded), [loaded]);
  const outlet = useMemo<AccountOutlet>(() => ({ user, setUser }), [user]);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const section = sectionFor(pathname);
  const [loggingOut, setLoggingOut] = useState(false);
  const [toast, setToast] = useState<string | null>(null);
  const dismissToast = useCallback(() => setToast(null), []);

  const logout = async () => {
    setLoggingOut(true);
    setToast(null);
    try {
      await apiFetch('/api/logout', { method: 'POST' });
      clearUserId();
      navigate('/home', { replace: true });
    } catch {
      setToast(LOGOUT_FAILED);
    } finally {
      setLoggingOut(false);
    }
  };

  return (
    <LiveProvider>
      <MapMarkersProvider>
        <LiveTitle />
        <div className="app-shell">
          <a className="skip-link" href="#content">
            Skip to content
          </a>
          <header className="topbar">
            <Brand />
            <div className="topbar-actions">
              <LiveBell />
              <ProfileMenu
                picture={user?.profilePicture}
                username={user?.username}
                onLogout={logout}
                onSettings={() => navigate('/settings')}
                loggingOut={loggingOut}
              />
            </div>
          </header>

          <div className="shell-body">
            <SideNav section={section} />

            <main id="content" className="content" tabIndex={-1}>
              <Outlet context={outlet} />
            </main>

            <MarkerPhotosContext.Provider value={useLoadedPhotos}>
              <MapPanel
                user={{ name: user?.username, picture: user?.profilePicture }}
                renderJournal={renderJournal}
                renderItinerary={renderItinerary}
              />
            </MarkerPhotosContext.Provider>
          </div>

          {toast ? (
            <div className="toast-region">
              <Toast message={toast} onDismiss={dismissToast} />
            </div>
          ) : null}
        </div>
      </MapMarkersProvider>
    </LiveProvider>
  );
}
