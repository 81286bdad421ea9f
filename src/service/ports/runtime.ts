/** What the service needs from the outside world besides storage; chosen by the composition roots. */
export interface Clock {
  now(): Date;
}

export interface Runtime {
  clock: Clock;
  /** A new time-ordered unique id. */
  newId(): string;
}
