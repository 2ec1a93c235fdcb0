/** The project and warehouse a query or a write is limited to: the session's. */
export interface Place {
  projectId: number;
  warehouseId: number;
}

/** Who is writing, and where: the project and warehouse of the session, and the user's login. */
export interface Author extends Place {
  login: string;
}

/**
 * The columns a new document row of the author's place starts with: its project and warehouse, and
 * who created it and last changed it (the same user, at creation).
 */
export function newRowOf(author: Author): { project_id: number; warehouse_id: number; created_by: string; updated_by: string } {
  return { project_id: author.projectId, warehouse_id: author.warehouseId, created_by: author.login, updated_by: author.login };
}
