// Discounts (percentage or fixed; once, forever or repeating), applied by checkouts and renewals.
export {register} from './routes.js'
export {collections} from './model.js'
