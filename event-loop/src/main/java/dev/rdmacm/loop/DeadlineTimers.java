package dev.rdmacm.loop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The deadlines of one loop, each owned by a subject (a pending resolution, an SA transaction, an ACM
 * lookup), on the loop's {@link NanoClock}: a binary min-heap of timer slots.
 * <ul>
 *   <li><b>Memory follows the timers, not their deadlines.</b> Agrona's {@code DeadlineTimerWheel},
 *   used here before, gives every tick of its wheel the capacity of the fullest one: 10,000 timers in
 *   one 1 ms tick (a burst of {@code resolveAddrAsync} calls with one timeout) grow it to 128 MB, and
 *   the burst in {@code PendingResolutionHeap} held 499 bytes of wheel per pending resolution
 *   (issue 15). A slot here is 28 bytes, in arrays that double.</li>
 *   <li><b>A timer id names its slot.</b> The low 32 bits are the slot, the high bits the slot's
 *   generation, so an id whose timer fired or was cancelled, and whose slot now holds another timer,
 *   cancels nothing; no map from id to subject (Agrona's {@code Long2ObjectHashMap} was a fifth of
 *   the SA engine's user-mode CPU per query).</li>
 *   <li><b>The earliest deadline is exact</b>, the top of the heap: the loop never wakes for a
 *   cancelled timer and never scans for the next one.</li>
 * </ul>
 * Scheduling and cancelling are O(log n), firing O(log n) per timer. Not thread-safe: the loop
 * thread alone uses it.
 *
 * @param <T> what a timer belongs to.
 */
public final class DeadlineTimers<T>
{
    /** The id of no timer. */
    public static final long NULL_TIMER = Long.MAX_VALUE;
    private static final int INITIAL_SLOTS = 16;
    private static final long SLOT_MASK = 0xFFFF_FFFFL;
    /** Generations stay below 2^31 so that no id is negative or {@link #NULL_TIMER}. */
    private static final int GENERATION_MASK = 0x7FFF_FFFF;
    private static final int NOT_IN_HEAP = -1;

    /** Called for every timer that is due. */
    @FunctionalInterface
    public interface Expiry<T>
    {
        void onDeadline(T subject, long timerId, long nowNanos);
    }

    private final NanoClock clock;
    // Per slot: its deadline, subject, place in the heap (or NOT_IN_HEAP when free) and generation.
    private long[] deadlines = new long[INITIAL_SLOTS];
    private Object[] subjects = new Object[INITIAL_SLOTS];
    private int[] heapIndex = new int[INITIAL_SLOTS];
    private int[] generations = new int[INITIAL_SLOTS];
    /** Slots by deadline, a binary min-heap: heap[0] is the earliest. */
    private int[] heap = new int[INITIAL_SLOTS];
    private int size;
    /** Free slots, a stack; slots are taken from it before the arrays grow. */
    private int[] free = new int[INITIAL_SLOTS];
    private int freeCount;
    /** Slots ever used: [0, used) is either in the heap or on the free stack. */
    private int used;

    public DeadlineTimers(final NanoClock clock)
    {
        this.clock = clock;
        Arrays.fill(heapIndex, NOT_IN_HEAP);
    }

    public NanoClock clock()
    {
        return clock;
    }

    /** Schedules a timer for {@code subject} at {@code deadlineNanos} (on the clock); returns its id. */
    public long schedule(final T subject, final long deadlineNanos)
    {
        final int slot = takeSlot();
        deadlines[slot] = deadlineNanos;
        subjects[slot] = subject;
        heap[size] = slot;
        heapIndex[slot] = size;
        size++;
        siftUp(size - 1);
        return (long)generations[slot] << 32 | slot;
    }

    /** Cancels {@code timerId} ({@link #NULL_TIMER} or one already fired: nothing); returns {@link #NULL_TIMER}. */
    public long cancel(final long timerId)
    {
        final int slot = liveSlot(timerId);
        if (slot >= 0)
        {
            removeAt(heapIndex[slot]);
        }
        return NULL_TIMER;
    }

    /** {@link #cancel} then {@link #schedule}: moves a subject's one timer. */
    public long reschedule(final long timerId, final T subject, final long deadlineNanos)
    {
        cancel(timerId);
        return schedule(subject, deadlineNanos);
    }

    public int count()
    {
        return size;
    }

    /** The subjects that have a timer, copied: the caller may cancel while it iterates. */
    public List<T> subjects()
    {
        final List<T> copy = new ArrayList<>(size);
        for (int i = 0; i < size; i++)
        {
            copy.add(subject(heap[i]));
        }
        return copy;
    }

    /** The earliest deadline on the clock, or {@link Long#MAX_VALUE} when no timer is set. */
    public long earliestDeadline()
    {
        return size == 0 ? Long.MAX_VALUE : deadlines[heap[0]];
    }

    /**
     * How long the loop may wait from {@code nowNanos}: 0 when a timer is due, {@link Long#MAX_VALUE}
     * when none is set.
     */
    public long nanosToEarliest(final long nowNanos)
    {
        return size == 0 ? Long.MAX_VALUE : Math.max(0, deadlines[heap[0]] - nowNanos);
    }

    /**
     * Hands every timer due at {@code nowNanos} (at most {@code limit}), earliest first, to
     * {@code onDeadline}; the timer is gone when it is called, so the subject may schedule a new one.
     *
     * @return how many fired.
     */
    public int expire(final long nowNanos, final Expiry<T> onDeadline, final int limit)
    {
        int expired = 0;
        while (size > 0 && expired < limit && deadlines[heap[0]] <= nowNanos)
        {
            final int slot = heap[0];
            final T subject = subject(slot);
            final long timerId = (long)generations[slot] << 32 | slot;
            removeAt(0);
            expired++;
            onDeadline.onDeadline(subject, timerId, nowNanos);
        }
        return expired;
    }

    /** How many slots the arrays hold: for tests of the memory bound. */
    int capacity()
    {
        return deadlines.length;
    }

    @SuppressWarnings("unchecked")
    private T subject(final int slot)
    {
        return (T)subjects[slot];
    }

    /** The slot of a timer still set, or -1. */
    private int liveSlot(final long timerId)
    {
        if (timerId == NULL_TIMER || timerId < 0)
        {
            return -1;
        }
        final long slot = timerId & SLOT_MASK;
        if (slot >= used || heapIndex[(int)slot] == NOT_IN_HEAP || generations[(int)slot] != (int)(timerId >>> 32))
        {
            return -1;
        }
        return (int)slot;
    }

    private int takeSlot()
    {
        if (freeCount > 0)
        {
            return free[--freeCount];
        }
        if (used == deadlines.length)
        {
            grow();
        }
        return used++;
    }

    private void grow()
    {
        final int capacity = 2 * deadlines.length;
        deadlines = Arrays.copyOf(deadlines, capacity);
        subjects = Arrays.copyOf(subjects, capacity);
        generations = Arrays.copyOf(generations, capacity);
        heap = Arrays.copyOf(heap, capacity);
        free = Arrays.copyOf(free, capacity);
        final int oldCapacity = heapIndex.length;
        heapIndex = Arrays.copyOf(heapIndex, capacity);
        Arrays.fill(heapIndex, oldCapacity, capacity, NOT_IN_HEAP);
    }

    /** Takes the timer at heap position {@code index} out and frees its slot. */
    private void removeAt(final int index)
    {
        final int slot = heap[index];
        size--;
        if (index != size)
        {
            final int last = heap[size];
            heap[index] = last;
            heapIndex[last] = index;
            if (!siftUp(index))
            {
                siftDown(index);
            }
        }
        heapIndex[slot] = NOT_IN_HEAP;
        subjects[slot] = null;
        generations[slot] = (generations[slot] + 1) & GENERATION_MASK;
        free[freeCount++] = slot;
    }

    /** Returns whether the timer at {@code index} moved. */
    private boolean siftUp(final int index)
    {
        int child = index;
        final int slot = heap[child];
        final long deadline = deadlines[slot];
        while (child > 0)
        {
            final int parent = (child - 1) >>> 1;
            final int parentSlot = heap[parent];
            if (deadlines[parentSlot] <= deadline)
            {
                break;
            }
            heap[child] = parentSlot;
            heapIndex[parentSlot] = child;
            child = parent;
        }
        heap[child] = slot;
        heapIndex[slot] = child;
        return child != index;
    }

    private void siftDown(final int index)
    {
        int parent = index;
        final int slot = heap[parent];
        final long deadline = deadlines[slot];
        while (true)
        {
            int child = 2 * parent + 1;
            if (child >= size)
            {
                break;
            }
            if (child + 1 < size && deadlines[heap[child + 1]] < deadlines[heap[child]])
            {
                child++;
            }
            final int childSlot = heap[child];
            if (deadline <= deadlines[childSlot])
            {
                break;
            }
            heap[parent] = childSlot;
            heapIndex[childSlot] = parent;
            parent = child;
        }
        heap[parent] = slot;
        heapIndex[slot] = parent;
    }
}
