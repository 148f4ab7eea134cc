/** The order documents the batch and serving benchmarks extract from: a 4-field schema, and text i. */
export const ORDER_SCHEMA = {
  type: "object",
  properties: {
    customer: { type: "string", maxLength: 40 },
    product: { type: "string", maxLength: 40 },
    quantity: { type: ["integer", "null"], minimum: 1 },
    city: { type: ["string", "null"], maxLength: 30 },
  },
  required: ["customer", "product", "quantity", "city"],
};

const PRODUCTS = ["laptop", "USB cable", "desk lamp", "笔记本电脑", "office chair", "monitor"];
const CITIES = ["Lyon", "Oslo", "上海", "Austin", "Porto"];

export function orderText(i: number): string {
  return `Order ${i}: customer Name${i} from ${CITIES[i % CITIES.length]} bought ${1 + (i % 9)} x ${PRODUCTS[i % PRODUCTS.length]}.`;
}
