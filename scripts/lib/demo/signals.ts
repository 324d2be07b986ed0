// What the browser extension would send during a test, made up: a tester who cannot pay. Four
// clicks on a button that does nothing within 1.5 s, said out loud with frustration, a frowning
// face at that moment, then a form error: the barriers Agent 2 is to find and the tester to confirm.

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000).toISOString();

export function syntheticEvents(base: Date) {
  const viewport = { width: 1280, height: 800 };
  return [
    {
      eventType: 'navigation',
      targetSelector: 'https://shop.example/checkout',
      timestamp: at(base, 0),
      viewport,
    },
    { eventType: 'focus', targetSelector: '#card-number', timestamp: at(base, 4) },
    { eventType: 'input', targetSelector: '#card-number', timestamp: at(base, 6), inputLength: 16 },
    { eventType: 'scroll', targetSelector: 'main', timestamp: at(base, 9), scrollY: 420 },
    ...[20, 20.5, 21, 21.5].map((seconds) => ({
      eventType: 'click',
      targetSelector: '#pay',
      timestamp: at(base, seconds),
      x: 640,
      y: 610,
      viewport,
    })),
    { eventType: 'error', targetSelector: '#card-number', timestamp: at(base, 80) },
  ];
}

export function syntheticVoice(base: Date) {
  return [
    {
      segmentIndex: 0,
      startTime: at(base, 1),
      endTime: at(base, 4),
      transcript: 'okay, I am on the checkout page and I will enter my card',
      sentiment: 'neutral',
      sentimentScore: 0.1,
      wordsPerMinute: 150,
    },
    {
      segmentIndex: 1,
      startTime: at(base, 21),
      endTime: at(base, 25),
      transcript: 'why does the pay button not do anything, I pressed it four times',
      sentiment: 'negative',
      sentimentScore: -0.8,
      hesitationCount: 2,
      wordsPerMinute: 170,
    },
  ];
}

/** Facial frames as the facial engine scores them (the spec's facial frame item). */
export function syntheticFacialFrames(base: Date) {
  const calm = { neutral: 0.8, happy: 0.15, sad: 0.05 };
  const frustrated = { angry: 0.55, sad: 0.25, neutral: 0.2 };
  return [0, 10, 20, 22, 24, 60].map((seconds, frameIndex) => ({
    frameIndex,
    timestamp: at(base, seconds),
    emotions: seconds >= 20 && seconds <= 24 ? frustrated : calm,
    attentionScore: seconds >= 20 && seconds <= 24 ? 0.95 : 0.7,
  }));
}
