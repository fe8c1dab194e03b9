import { Outlet, useNavigation } from 'react-router-dom';
import { LogoMark } from '../components/Logo';

/** Pathless root: renders the matched screen and a thin progress bar while a route loads. */
export function RootShell() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  return (
    <>
      <div className={`route-progress${busy ? ' is-active' : ''}`} aria-hidden="true" />
      <Outlet />
    </>
  );
}

/** Shown while the first route (its lazy chunk and loader) is loading. */
export function Splash() {
  return (
    <div className="splash" role="status" aria-live="polite">
      <LogoMark size={48} />
      <span className="visually-hidden">Loading Wayfarer…</span>
    </div>
  );
}
