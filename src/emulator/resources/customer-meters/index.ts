// Customer meters: each customer's use of each meter (consumed, credited, balance), also in the portal.
export {register} from './routes.js'
