/** The packing area's domain events. */
declare module '../../events/events.js' {
  interface DomainEvents {
    /** Packing of an order was checked complete (packed or partially packed). */
    'packing.checkCompleted': { soId: number; projectId: number; warehouseId: number };
  }
}

export {};
