import { useEffect, useState } from 'react';
import { api } from '../api/client';

/**
 * Every user as a choice of a picker (value the user's id, label `account (name)`), read each time
 * a dialog that picks users opens; an empty list when the read is refused.
 */
export function useUserOptions(open: boolean): { value: number; label: string }[] {
  const [users, setUsers] = useState<{ uid: number; loginAccount: string; displayName: string }[]>([]);
  useEffect(() => {
    if (!open) return;
    api<{ uid: number; loginAccount: string; displayName: string }[]>('/user/all/loginAccount')
      .then(setUsers)
      .catch(() => setUsers([]));
  }, [open]);
  return users.map((u) => ({ value: u.uid, label: `${u.loginAccount} (${u.displayName})` }));
}
