/** Sends one text message; implementations throw when the provider refuses it. */
export interface SmsProvider {
  send(to: string, text: string): Promise<void>;
}

/**
 * The HTTP provider configured by SMS_URL: one POST of `{ to, text }` as JSON; any 2xx answer is
 * success. Gateways with another shape sit behind a small adapter service at that URL.
 */
export class HttpSmsProvider implements SmsProvider {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(to: string, text: string): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
  }
}
