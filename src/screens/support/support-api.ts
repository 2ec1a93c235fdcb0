import { api, download } from '../../app/public';

/** A ticket as `/generic/support/*` answers it. */
export interface Ticket {
  id: number;
  number: string;
  type: 'GEN' | 'A01';
  organizationId: number;
  projectId: number;
  organizationCode: string | null;
  projectCode: string | null;
  subject: string;
  category: string;
  priority: string;
  status: 'open' | 'answered' | 'closed';
  requester: string;
  asnNumber: string | null;
  requestStatus: 'pending' | 'approved' | null;
  decidedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Option {
  id: number;
  code: string;
  name: string;
}

export interface TicketDetail {
  header: Ticket;
  messages: Array<{ id: number; author: string; text: string; at: string }>;
}

export interface LogEntry {
  id: number;
  at: string;
  by: string;
  action: string;
  details: Record<string, unknown> | null;
}

/** A file sent with a message. */
export interface MessageFile {
  id: number;
  messageId: number;
  fileName: string;
  contentType: string;
  size: number;
}

/** The attachment cap of a record (500 MB); the server checks it again with its configured value. */
export const ATTACHMENT_LIMIT_BYTES = 500 * 1024 * 1024;

const BASE = '/generic/support';

export const supportApi = {
  organizations: () => api<Option[]>(`${BASE}/getOrgs`),
  projects: (organizationId: number) => api<Array<Option & { organizationId: number }>>(`${BASE}/getProjects`, { query: { organizationId } }),
  list: (filter: { status?: string; search?: string; page: number; pageSize: number }) =>
    api<{ total: number; rows: Ticket[] }>(`${BASE}/getSupportHeaderList`, { method: 'POST', body: filter }),
  detail: (ticketId: number) => api<TicketDetail>(`${BASE}/getSupportDetailList`, { method: 'POST', body: { ticketId } }),
  /** A ticket by its number, as its link names it. */
  byNumber: (number: string) => api<TicketDetail>(`${BASE}/${encodeURIComponent(number)}`),
  saveNote: (ticketId: number, note: string) => api<{ ok: boolean }>(`${BASE}/saveLog`, { method: 'POST', body: { ticketId, note } }),
  log: (ticketId: number) => api<LogEntry[]>(`${BASE}/getLog`, { method: 'POST', body: { ticketId } }),
  send: (body: Record<string, unknown>) => api<Ticket>(`${BASE}/sendSupport`, { method: 'POST', body, quiet: true }),
  sendReopenAsn: (body: Record<string, unknown>) => api<Ticket>(`${BASE}/sendSupportA01ReopenASN`, { method: 'POST', body, quiet: true }),
  message: (ticketId: number, message: string) => api<Ticket>(`${BASE}/message`, { method: 'POST', body: { ticketId, message } }),
  messageWithFiles: (ticketId: number, message: string, files: File[]) => {
    const form = new FormData();
    form.append('ticketId', String(ticketId));
    form.append('message', message);
    for (const file of files) form.append('file', file, file.name);
    return api<{ ticketId: number; files: number }>(`${BASE}/messageWithFiles`, { method: 'POST', body: form });
  },
  attachments: (ticketId: number) => api<{ items: MessageFile[] }>(`${BASE}/getAttachments`, { method: 'POST', body: { ticketId } }),
  downloadAttachment: (id: number) => download(`${BASE}/downloadAttachment`, { method: 'POST', body: { id } }),
  close: (ticketId: number) => api<Ticket>(`${BASE}/close`, { method: 'POST', body: { ticketId } }),
  reopen: (ticketId: number) => api<Ticket>(`${BASE}/reopen`, { method: 'POST', body: { ticketId } }),
  approve: (ticketId: number) => api<Ticket>(`${BASE}/approveA01ReopenASN`, { method: 'POST', body: { ticketId } }),
};
