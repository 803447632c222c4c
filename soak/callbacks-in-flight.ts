/**
 * The sign-in callbacks each gateway instance is serving at this moment,
 * kept by the browser, so that the fault schedule can kill an instance in
 * the middle of a sign-in rather than between two, and tell afterwards how
 * many of those sign-ins got no answer.
 */

/** One callback on its way: undefined until it is answered or its connection is cut. */
export interface CallbackFlight {
  readonly startedAt: number;
  ended: 'answered' | 'cut' | undefined;
}

const callbackPath = /^\/_sso\/callback\//;

export class CallbacksInFlight {
  private readonly byOrigin = new Map<string, Set<CallbackFlight>>();

  /** Starts tracking a request to `url`, if it is a callback; end it with `end`. */
  begin(url: string): CallbackFlight | undefined {
    const { origin, pathname } = new URL(url);
    if (!callbackPath.test(pathname)) return undefined;
    const flight: CallbackFlight = { startedAt: Date.now(), ended: undefined };
    let flights = this.byOrigin.get(origin);
    if (flights === undefined) {
      flights = new Set();
      this.byOrigin.set(origin, flights);
    }
    flights.add(flight);
    return flight;
  }

  end(url: string, flight: CallbackFlight | undefined, ended: 'answered' | 'cut'): void {
    if (flight === undefined) return;
    flight.ended = ended;
    this.byOrigin.get(new URL(url).origin)?.delete(flight);
  }

  /** The callbacks the instance at `origin` is serving now. */
  at(origin: string): CallbackFlight[] {
    return [...(this.byOrigin.get(origin) ?? [])];
  }
}
