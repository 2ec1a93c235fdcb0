/**
 * Counts running calls and says when the global loading indicator shows: only after
 * `delayMs` of continuous activity, so that fast calls never make it flicker, and it hides as soon
 * as the last of several parallel calls ends.
 */
export class LoadingCounter {
  private running = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private visible = false;

  constructor(
    private readonly onChange: (visible: boolean) => void,
    private readonly delayMs = 200,
  ) {}

  start(): void {
    this.running += 1;
    if (this.running === 1 && !this.visible && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.running > 0) this.set(true);
      }, this.delayMs);
    }
  }

  end(): void {
    this.running = Math.max(0, this.running - 1);
    if (this.running > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.set(false);
  }

  get count(): number {
    return this.running;
  }

  private set(visible: boolean) {
    if (visible === this.visible) return;
    this.visible = visible;
    this.onChange(visible);
  }
}
