/** A study create body that passes every rule of the spec; tests change one field at a time. */
export function validStudyBody(): Record<string, unknown> {
  return {
    title: 'Checkout flow study',
    description: 'Find the barriers screen-reader users meet when paying.',
    prototypeUrl: 'https://shop.example/checkout',
    prototypeType: 'url',
    tasks: [
      { title: 'Find a product', description: 'Search for a kettle', order: 1 },
      { title: 'Pay', description: 'Complete the purchase', successCriteria: 'Order page shown', order: 2 },
    ],
    targeting: { countries: ['GB', 'DE'], devices: ['desktop', 'mobile'], testerCount: 10 },
    compensation: { currency: 'EUR', amount: 25, type: 'flat' },
  };
}

/** The same body with an enabled A/B test over the given labels. */
export function abStudyBody(labels: string[] = ['A', 'B'], splitRatio?: Record<string, number>) {
  return {
    ...validStudyBody(),
    abTest: {
      enabled: true,
      variants: labels.map((label) => ({ label, description: `Variant ${label}` })),
      ...(splitRatio ? { splitRatio } : {}),
    },
  };
}
