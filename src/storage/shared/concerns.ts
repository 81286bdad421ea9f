/**
 * Each store's reads, and its write transaction, are one class made of its concern classes (books,
 * credentials, audit, banking, rates: one file each, as the port is split): TypeScript's mixin
 * pattern. The class's interface extends the concern classes, so the type checker, and
 * go-to-definition, see each method where it is written; `mixConcerns` puts their methods on the
 * class's prototype. A method the class defines itself (the transaction's remembered accounts and
 * periods) stays the class's.
 */
type Constructor = abstract new (...args: never[]) => object;

export function mixConcerns(target: Constructor, concerns: readonly Constructor[]): void {
  const from = new Map<string, string>();
  for (const concern of concerns) {
    for (const name of Object.getOwnPropertyNames(concern.prototype)) {
      if (name === 'constructor' || Object.hasOwn(target.prototype, name)) continue;
      const earlier = from.get(name);
      if (earlier !== undefined) throw new Error(`${concern.name} and ${earlier} both define ${name}`);
      from.set(name, concern.name);
      Object.defineProperty(target.prototype, name, Object.getOwnPropertyDescriptor(concern.prototype, name)!);
    }
  }
}
