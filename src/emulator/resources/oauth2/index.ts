// OAuth2: the authorize page, the token, revoke, introspect and userinfo endpoints, and client registration.
export {register} from './routes.js'
export {collections} from './model.js'
