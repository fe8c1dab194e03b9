import { CloseAccountSection } from '../account/components/CloseAccountSection';
import { PasswordSection } from '../account/components/PasswordSection';
import { ProfileSection } from '../account/components/ProfileSection';
import { useAccount } from '../account/useAccount';
import '../styles/auth.css';
import '../styles/trips.css';
import '../styles/settings.css';

/**
 * Settings (`/settings`, from the profile menu): your name and picture, your password,
 * and closing your account. The parts and their rules: `src/account`.
 */
export function Component() {
  const { user, setUser } = useAccount();
  return (
    <section className="page settings-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Settings</h1>
        <p className="page-subtitle">Your profile, your password and your account.</p>
      </header>
      <div className="settings-stack">
        <ProfileSection user={user} onSaved={setUser} />
        <PasswordSection />
        <CloseAccountSection />
      </div>
    </section>
  );
}
