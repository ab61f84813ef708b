// The access gate of a slot, inside the runtime's QueryClient (the plan is read through it).
import { Gate } from '../../../access/Gate.tsx';
import { withQueries } from '../../../runtime/query-scope.tsx';

export default withQueries(Gate);
