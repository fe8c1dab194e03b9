/**
 * Users of a bench's own stack (scripts/stack), through its gateway: signed up with a session
 * cookie, calls with it, and a poll a few ms apart (social's lag benches use the first two and
 * keep their own poll, with no pause between reads).
 */

export interface Account {
  userId: string;
  /** `Cookie` header value: the session auth set at sign-up. */
  header: string;
}

export function gatewayClient(base: string) {
  const call = (path: string, account: Account, init: RequestInit = {}): Promise<Response> =>
    fetch(`${base}${path}`, { ...init, headers: { ...init.headers, cookie: account.header } });

  const signUp = async (name: string): Promise<Account> => {
    const form = new FormData();
    form.append('name', name);
    form.append(
      'email',
      `bench.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`,
    );
    form.append('password', 'a long password');
    const res = await fetch(`${base}/api/register`, { method: 'POST', body: form });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    const { userId } = (await res.json()) as { userId: string };
    const raw = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='));
    if (!raw) throw new Error('register: no session cookie');
    return { userId, header: raw.split(';', 1)[0]! };
  };

  /** Polls `until` back to back (a few ms apart) until it holds; throws after `giveUpMs`. */
  const poll = async (what: string, until: () => Promise<boolean>, giveUpMs = 60_000) => {
    const deadline = performance.now() + giveUpMs;
    while (!(await until())) {
      if (performance.now() > deadline) throw new Error(`${what}: not after ${giveUpMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  return { call, signUp, poll };
}
