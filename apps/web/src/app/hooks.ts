import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from './store';

// The one place features reach into src/app: typed hooks (a type-only dependency on the store).
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
