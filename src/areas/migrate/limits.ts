// What Polar takes, as the converters apply it: each is the 2026-10 document's (limits.test.ts checks them
// against it), but the discount code's, which the document leaves open: the service's rule, as the catalog
// file checks it (3 to 256 letters and digits).
export const LIMITS = {
  productName: {min: 3, max: 64},
  benefitDescription: {min: 3, max: 42},
  intervalCount: 999,
  discountMonths: 999,
  customerName: 256,
  code: {min: 3, max: 256},
} as const
