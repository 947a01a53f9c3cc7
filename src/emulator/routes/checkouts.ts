import type {Router} from '../http.js'

export function register(_r: Router): void {}
