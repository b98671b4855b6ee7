import { z } from 'zod';

// Argument schemas that several retail tools share, described once.

export const orderId = z.string().describe("Order id, e.g. '#W4817420'. The leading '#' is part of the id.");
export const userId = z.string().describe("User id, e.g. 'olivia_chen_4821', as returned by the find_user_id tools.");
export const productId = z.string().describe('Product id (10 digits). Not an item id: a product groups many items.');
export const itemId = z.string().describe('Item id (10 digits): one variant of a product, with its own options and price.');
export const paymentMethodId = z.string().describe("Payment method id from the user's profile, e.g. 'gift_card_3098712' or 'credit_card_7723401'.");

export const itemIds = z.array(itemId).min(1).describe('Item ids of the order; an id appears as many times as units are meant.');
export const newItemIds = z.array(itemId).min(1).describe('Replacement item ids, position by position: each must be another variant of the same product.');

export const addressFields = {
  address1: z.string().describe("Street line, e.g. '742 Cedar Lane'."),
  address2: z.string().describe("Second line, e.g. 'Apt 5', or an empty string."),
  city: z.string().describe("City, e.g. 'Portland'."),
  state: z.string().describe("State code, e.g. 'OR'."),
  country: z.string().describe("Country, e.g. 'USA'."),
  zip: z.string().describe("Zip code, e.g. '97205'."),
};

// Shopping: search, cart and checkout.

export const cartQuantity = z.number().int().min(1).max(10).describe('Number of units, 1 to 10. A cart holds at most 10 units of one item.');

export const pageSize = z.number().int().min(1).max(50).describe('How many results to return at most, 1 to 50.');
