import { Link } from 'react-router-dom';
import { Brand } from '../components/Logo';
import {
  BucketIcon,
  CameraIcon,
  ChatIcon,
  FriendsIcon,
  PlusIcon,
  TripsIcon,
} from '../components/icons';
import '../styles/home.css';

const FEATURES = [
  {
    icon: <TripsIcon />,
    title: 'An interactive map of your journeys',
    text: 'Every destination you visit becomes a pin on a dark world map you can explore.',
  },
  {
    icon: <CameraIcon />,
    title: 'Stories and photos on every stop',
    text: 'Keep a photo carousel and a personal journal for each place you have been.',
  },
  {
    icon: <FriendsIcon />,
    title: "Browse your friends' adventures",
    text: 'See where your friends have travelled and read the stories they share.',
  },
  {
    icon: <PlusIcon />,
    title: 'Create trips in minutes',
    text: 'Name a trip, set its dates and add destinations with photos and a story.',
  },
  {
    icon: <BucketIcon />,
    title: 'A bucket list that plans ahead',
    text: 'Save the places you dream of and sketch an itinerary for each one.',
  },
  {
    icon: <ChatIcon />,
    title: 'Chat to plan together',
    text: 'Message friends in real time and turn someday into a date on the calendar.',
  },
];

function HeroArt() {
  return (
    <svg className="hero-art" viewBox="0 0 420 420" aria-hidden="true" focusable="false">
      <defs>
        <radialGradient id="globe-fill" cx="38%" cy="32%" r="75%">
          <stop offset="0" stopColor="#1d2a52" />
          <stop offset="1" stopColor="#0c1228" />
        </radialGradient>
        <linearGradient id="route" x1="0" x2="1">
          <stop offset="0" stopColor="var(--accent)" stopOpacity=".35" />
          <stop offset="1" stopColor="var(--accent)" />
        </linearGradient>
      </defs>
      <circle cx="210" cy="210" r="170" fill="url(#globe-fill)" stroke="#2c3a66" />
      <g fill="none" stroke="#2c3a66" strokeWidth="1">
        <ellipse cx="210" cy="210" rx="60" ry="170" />
        <ellipse cx="210" cy="210" rx="120" ry="170" />
        <ellipse cx="210" cy="210" rx="170" ry="60" />
        <ellipse cx="210" cy="210" rx="170" ry="120" />
        <line x1="40" y1="210" x2="380" y2="210" />
        <line x1="210" y1="40" x2="210" y2="380" />
      </g>
      <path
        d="M108 268C140 170 220 150 262 186s58 22 62-66"
        fill="none"
        stroke="url(#route)"
        strokeWidth="3"
        strokeDasharray="2 9"
        strokeLinecap="round"
      />
      <g className="hero-pin">
        <circle cx="108" cy="268" r="7" fill="var(--accent)" />
        <circle cx="108" cy="268" r="14" fill="var(--accent)" opacity=".18" />
      </g>
      <circle cx="262" cy="186" r="6" fill="var(--text)" />
      <g transform="translate(306 64)">
        <path
          d="M18 0C8.1 0 0 7.8 0 17.4 0 30 18 46 18 46s18-16 18-28.6C36 7.8 27.9 0 18 0Z"
          fill="var(--accent)"
        />
        <circle cx="18" cy="17" r="7" fill="#0c1228" />
      </g>
    </svg>
  );
}

export function Component() {
  return (
    <div className="landing">
      <header className="landing-bar">
        <Brand />
        <nav className="landing-actions" aria-label="Account">
          <Link to="/login" className="btn btn-ghost">
            Log In
          </Link>
          <Link to="/register" className="btn btn-primary">
            Sign Up
          </Link>
        </nav>
      </header>

      <main className="landing-main">
        <section className="hero" aria-labelledby="hero-title">
          <div className="hero-copy">
            <p className="eyebrow">Travel, mapped and shared</p>
            <h1 id="hero-title">Every journey deserves a place on the map.</h1>
            <p className="hero-lead">
              Record trips with dated destinations, photos and stories, keep a bucket list of places
              to see next, and follow your friends&apos; adventures on one shared world map.
            </p>
            <div className="hero-cta">
              <Link to="/register" className="btn btn-primary btn-lg">
                Start your travel map
              </Link>
              <a href="#features" className="btn btn-ghost btn-lg">
                See what&apos;s inside
              </a>
            </div>
          </div>
          <HeroArt />
        </section>

        <section id="features" className="features" aria-labelledby="features-title">
          <h2 id="features-title">Everything your travels need, in one place</h2>
          <ul className="feature-grid">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="feature-card">
                <span className="feature-icon">{feature.icon}</span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>

      <footer className="landing-footer">
        <p>© {new Date().getFullYear()} Wayfarer. Made for people who collect places.</p>
      </footer>
    </div>
  );
}
