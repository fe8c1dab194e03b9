import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootShell, Splash } from './routes/root';

/**
 * Route table. Every screen is its own lazy chunk under `src/routes/`.
 * No custom errorElement anywhere: react-router's default error page
 * ('Unexpected Application Error!') is the product's error page.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootShell,
    HydrateFallback: Splash,
    children: [
      { path: '/home', lazy: () => import('./routes/home') },
      { path: '/login', lazy: () => import('./routes/login') },
      { path: '/register', lazy: () => import('./routes/register') },
      // a trip shown by its share link, outside the signed-in layout
      { path: '/s/:token', lazy: () => import('./routes/shared-trip') },
      {
        path: '/',
        id: 'protected',
        lazy: () => import('./routes/layout'),
        children: [
          { index: true, lazy: () => import('./routes/trips') },
          { path: 'trips', lazy: () => import('./routes/trips') },
          { path: 'feed', lazy: () => import('./routes/feed') },
          { path: 'bucketlist', lazy: () => import('./routes/bucketlist') },
          { path: 'trip/:id', lazy: () => import('./routes/trip') },
          { path: 'trip/:id/edit', lazy: () => import('./routes/edit-trip') },
          { path: 'friends', lazy: () => import('./routes/friends') },
          // the visited-countries atlas and figures
          { path: 'atlas', lazy: () => import('./routes/atlas') },
          { path: 'addFriends', lazy: () => import('./routes/add-friends') },
          { path: 'messages', lazy: () => import('./routes/inbox') },
          { path: 'messages/:id', lazy: () => import('./routes/messages') },
          { path: 'addTrip', lazy: () => import('./routes/add-trip') },
          { path: 'settings', lazy: () => import('./routes/settings') },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

export const router = createBrowserRouter(routes);
