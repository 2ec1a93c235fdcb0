import type { MenuAnswer, UserStatus } from '../../common/api-types';
import { api } from '../api/client';
import { applyLanguage } from '../language';
import { updateSession } from '../store/session-store';

/** Loads who is signed in and in which scope into the session store. */
export async function loadStatus(): Promise<UserStatus> {
  const status = await api<UserStatus>('/user/status');
  updateSession({
    status,
    currentUid: status.user.uid,
    userUid: status.simulatedBy?.uid ?? status.user.uid,
    role: status.user.isAdmin ? 'admin' : 'user',
    projectCode: status.project?.code ?? null,
    warehouseCode: status.warehouse?.code ?? null,
  });
  // The user's saved default language wins after a reload.
  applyLanguage(status.user.language);
  return status;
}

/** Loads the user's menu, built by the server from the user's rights. */
export async function loadMenu(): Promise<void> {
  const answer = await api<MenuAnswer>('/user/menu');
  updateSession({ menu: answer.items });
}
