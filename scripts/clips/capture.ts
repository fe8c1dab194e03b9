import type { CDPSession, Page } from 'playwright-core';

/** One screencast frame: a JPEG and when the browser drew it (seconds, the browser's clock). */
export interface Frame {
  jpeg: Buffer;
  at: number;
}

/** What a filmed scene gives the encoder: its frames, each with how long it stays on screen. */
export interface Footage {
  frames: { jpeg: Buffer; seconds: number }[];
  width: number;
  height: number;
  seconds: number;
  /** The frame on screen when the scene marked its poster moment, if it did. */
  posterFrame?: number;
}

interface ScreencastFrame {
  data: string;
  sessionId: number;
  metadata: { timestamp?: number; deviceWidth: number; deviceHeight: number };
}

/**
 * Films `page` with Chromium's screencast (CDP `Page.startScreencast`): the browser sends a JPEG
 * whenever the page draws something new, stamped with the time it was drawn, and waits for an
 * acknowledgement before the next. A still page sends nothing, so each frame lasts until the
 * next one's timestamp (the encoder turns that into a constant frame rate).
 */
export class Camera {
  private session?: CDPSession;
  private frames: Frame[] = [];
  /** Local clock (ms) when the last frame arrived, and the browser's stamp of it (s). */
  private lastArrival = 0;
  private stopAt = 0;
  private posterFrame?: number;

  constructor(
    private readonly page: Page,
    private readonly size: { width: number; height: number },
  ) {}

  async start(): Promise<void> {
    const session = await this.page.context().newCDPSession(this.page);
    this.session = session;
    session.on('Page.screencastFrame', (frame: ScreencastFrame) => {
      const at = frame.metadata.timestamp ?? Date.now() / 1000;
      this.frames.push({ jpeg: Buffer.from(frame.data, 'base64'), at });
      this.lastArrival = performance.now();
      session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
    });
    await session.send('Page.startScreencast', {
      format: 'jpeg',
      quality: 92,
      maxWidth: this.size.width,
      maxHeight: this.size.height,
      everyNthFrame: 1,
    });
    // the first frame: the page as it is now
    const deadline = Date.now() + 10_000;
    while (this.frames.length === 0) {
      if (Date.now() > deadline) throw new Error('the screencast sent no frame in 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Marks the frame on screen now as the poster (a settled, representative moment). */
  markPoster(): void {
    this.posterFrame = this.frames.length - 1;
  }

  /** Stops filming; the last frame lasts until now. */
  async stop(): Promise<Footage> {
    this.stopAt = performance.now();
    await this.session?.send('Page.stopScreencast').catch(() => {});
    await this.session?.detach().catch(() => {});
    const frames = this.frames;
    if (frames.length === 0) throw new Error('no frame filmed');
    const tail = Math.max(0.1, (this.stopAt - this.lastArrival) / 1000);
    const out = frames.map((f, i) => ({
      jpeg: f.jpeg,
      seconds: i + 1 < frames.length ? Math.max(0, frames[i + 1]!.at - f.at) : tail,
    }));
    const seconds = out.reduce((s, f) => s + f.seconds, 0);
    return {
      frames: out,
      width: this.size.width,
      height: this.size.height,
      seconds,
      posterFrame: this.posterFrame,
    };
  }
}
