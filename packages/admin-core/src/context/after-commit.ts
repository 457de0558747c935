import type { AdminServices } from './services.ts';

/**
 * After the commit, the blobs a write dropped are deleted (docs/files.md, "Saves"). The write is
 * committed: a failure here must not turn it into an error. The outbox rows stay, and the
 * janitor's periodic retry deletes them.
 */
export async function flushAfterCommit(services: AdminServices, outbox: readonly number[]): Promise<void> {
  if (outbox.length === 0) return;
  try {
    await services.blobs.flush([...outbox]);
  } catch (error) {
    services.config.logger.warn('blob deletion after commit failed; will retry', { error: String(error) });
  }
}
