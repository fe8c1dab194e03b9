import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SharePaths } from '@wayfarer/contracts';
import { Component as SharedTripRoute } from '../src/routes/shared-trip';
import '../src/styles/global.css';

/**
 * A test page for the public page of a share link (`/s/:token`): the real route
 * (`src/routes/shared-trip.tsx`) at `/s/<token>` of a memory router, `token` from the query.
 * Nothing behind it: the test answers `GET /api/shared/<token>` and its photo URLs
 * (test/component/shared-trip.test.ts).
 */
const token = new URLSearchParams(window.location.search).get('token') ?? '';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
createRoot(container).render(
  <StrictMode>
    <MemoryRouter initialEntries={[SharePaths.page(token)]}>
      <Routes>
        <Route path={`${SharePaths.pagePrefix}/:token`} Component={SharedTripRoute} />
        <Route path="*" element={<p data-testid="elsewhere">Left the page.</p>} />
      </Routes>
    </MemoryRouter>
  </StrictMode>,
);
