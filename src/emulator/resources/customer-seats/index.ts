// Customer seats: the seats of seat-based subscriptions, their invitations and claims (see ./service.ts).
export {register} from './routes.js'
export {collections} from './model.js'
