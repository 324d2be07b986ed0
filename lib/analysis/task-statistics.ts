// The figures of task-based usability studies at 95 % confidence, as Sauro and Lewis give them
// (Quantifying the User Experience): completion rates with the adjusted-Wald interval, task times
// as a geometric mean with the interval of the log-transformed times (t distribution).

/** z for a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;

/** Two-sided 95 % critical values of Student's t for 1 to 30 degrees of freedom. */
const T_95 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604,
  2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555,
  2.0518, 2.0484, 2.0452, 2.0423,
];

/** Student's t for a two-sided 95 % interval; beyond 30 degrees of freedom by Cornish-Fisher. */
export function t95(degreesOfFreedom: number): number {
  if (degreesOfFreedom < 1) throw new RangeError('t95 needs at least one degree of freedom');
  const tabled = T_95[degreesOfFreedom - 1];
  if (tabled !== undefined) return tabled;
  const z = Z_95;
  const v = degreesOfFreedom;
  return (
    z +
    (z ** 3 + z) / (4 * v) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
  );
}

export interface Interval {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The completion rate `successes / trials` with its adjusted-Wald 95 % interval (Agresti-Coull:
 * add z²/2 successes and z² trials, then the Wald interval), clipped to 0..1.
 */
export function completionRate(successes: number, trials: number): Interval {
  if (trials < 1 || successes < 0 || successes > trials) {
    throw new RangeError(`completionRate(${successes}, ${trials})`);
  }
  const adjustedTrials = trials + Z_95 ** 2;
  const adjusted = (successes + Z_95 ** 2 / 2) / adjustedTrials;
  const margin = Z_95 * Math.sqrt((adjusted * (1 - adjusted)) / adjustedTrials);
  return {
    value: successes / trials,
    low: Math.max(0, adjusted - margin),
    high: Math.min(1, adjusted + margin),
  };
}

/**
 * The typical time of successful attempts: the geometric mean (task times are skewed), with the 95 %
 * interval of the mean of the natural logarithms transformed back. One time has no interval: its
 * bounds are the time itself. Times must be positive.
 */
export function geometricMeanTime(times: readonly number[]): Interval {
  if (times.length === 0 || times.some((time) => !(time > 0))) {
    throw new RangeError('geometricMeanTime needs positive times');
  }
  const logs = times.map(Math.log);
  const mean = logs.reduce((sum, log) => sum + log, 0) / logs.length;
  if (logs.length === 1) return { value: Math.exp(mean), low: Math.exp(mean), high: Math.exp(mean) };
  const variance = logs.reduce((sum, log) => sum + (log - mean) ** 2, 0) / (logs.length - 1);
  const margin = t95(logs.length - 1) * Math.sqrt(variance / logs.length);
  return { value: Math.exp(mean), low: Math.exp(mean - margin), high: Math.exp(mean + margin) };
}
