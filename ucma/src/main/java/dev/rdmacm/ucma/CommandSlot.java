package dev.rdmacm.ucma;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.ucma.abi.CommandHeader;
import dev.rdmacm.ucma.abi.EventsReportedResponse;
import dev.rdmacm.ucma.abi.IdResponse;
import dev.rdmacm.ucma.abi.QueryAddrResponse;
import dev.rdmacm.ucma.abi.QueryPathResponse;
import dev.rdmacm.ucma.abi.UcmAccept;
import dev.rdmacm.ucma.abi.UcmBind;
import dev.rdmacm.ucma.abi.UcmConnect;
import dev.rdmacm.ucma.abi.UcmCreateId;
import dev.rdmacm.ucma.abi.UcmDestroyId;
import dev.rdmacm.ucma.abi.UcmDisconnect;
import dev.rdmacm.ucma.abi.UcmInitQpAttr;
import dev.rdmacm.ucma.abi.UcmJoinIpMcast;
import dev.rdmacm.ucma.abi.UcmJoinMcast;
import dev.rdmacm.ucma.abi.UcmListen;
import dev.rdmacm.ucma.abi.UcmMigrateId;
import dev.rdmacm.ucma.abi.UcmNotify;
import dev.rdmacm.ucma.abi.UcmQuery;
import dev.rdmacm.ucma.abi.UcmReject;
import dev.rdmacm.ucma.abi.UcmResolveAddr;
import dev.rdmacm.ucma.abi.UcmResolveRoute;
import dev.rdmacm.ucma.abi.UcmSetOption;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaStruct;
import dev.rdmacm.ucma.abi.UverbsQpAttr;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * One command's native buffers and flyweights, held by one thread while it writes a command to a
 * {@link UcmaChannel} and reads the response. A channel keeps a few and lends one per command (or per
 * {@link UcmaChannel#answer}), so that threads write their commands at once, as librdmacm's callers do,
 * instead of each waiting for the other's {@code write(2)} (a contended lock cost a futex wake and a wait
 * per command when the conductor, the caller and the thread taking the events all wrote, issue 32):
 * <pre>
 *   command  [ cmd_hdr | struct ........ response ]
 *                                           |
 *   response [ the command's response <---+ ]      read through the response views below
 *   option   [ SET_OPTION's value ]
 * </pre>
 * Not thread-safe: its holder's alone.
 */
final class CommandSlot
{
    private static final ByteOrder HOST = ByteOrder.nativeOrder();
    private static final int LARGEST_COMMAND = UcmAccept.LENGTH;
    private static final int LARGEST_RESPONSE = Math.max(QueryAddrResponse.LENGTH,
        QueryPathResponse.lengthFor(UcmaChannel.QUERY_PATHS));

    private final int fd;
    private final String device;
    final Libc.CallState state;
    final MemorySegment commandSegment;
    final UnsafeBuffer commandBuffer;
    final MemorySegment responseSegment;
    final UnsafeBuffer responseBuffer;
    final MemorySegment optionSegment;
    /** Set while {@link UcmaChannel#answer} holds this slot: the commands inside take it, and answer gives it back. */
    boolean answering;

    final CommandHeader header = new CommandHeader();
    final UcmCreateId createId = new UcmCreateId();
    final UcmDestroyId destroyId = new UcmDestroyId();
    final UcmBind bind = new UcmBind();
    final UcmResolveAddr resolveAddr = new UcmResolveAddr();
    final UcmResolveRoute resolveRoute = new UcmResolveRoute();
    final UcmQuery query = new UcmQuery();
    final UcmListen listen = new UcmListen();
    final UcmConnect connect = new UcmConnect();
    final UcmAccept accept = new UcmAccept();
    final UcmReject reject = new UcmReject();
    final UcmDisconnect disconnect = new UcmDisconnect();
    final UcmInitQpAttr initQpAttr = new UcmInitQpAttr();
    final UcmSetOption setOption = new UcmSetOption();
    final UcmNotify notify = new UcmNotify();
    final UcmMigrateId migrateId = new UcmMigrateId();
    final UcmJoinIpMcast joinIpMcast = new UcmJoinIpMcast();
    final UcmJoinMcast joinMcast = new UcmJoinMcast();
    final IdResponse idResponse = new IdResponse();
    final EventsReportedResponse eventsReported = new EventsReportedResponse();
    final QueryAddrResponse queryAddrResponse = new QueryAddrResponse();
    final QueryPathResponse queryPathResponse = new QueryPathResponse();
    final UverbsQpAttr qpAttr = new UverbsQpAttr();

    /** For the channel on {@code fd}, named {@code device} in errors; in {@code arena}, the channel's: its buffers go when it closes. */
    CommandSlot(final Arena arena, final int fd, final String device)
    {
        this.fd = fd;
        this.device = device;
        state = new Libc.CallState(arena);
        commandSegment = arena.allocate(CommandHeader.LENGTH + LARGEST_COMMAND, 8);
        commandBuffer = new UnsafeBuffer(commandSegment.address(), (int)commandSegment.byteSize());
        responseSegment = arena.allocate(LARGEST_RESPONSE, 8);
        responseBuffer = new UnsafeBuffer(responseSegment.address(), (int)responseSegment.byteSize());
        optionSegment = arena.allocate(QueryPathResponse.lengthFor(UcmaChannel.QUERY_PATHS), 8);
        header.wrap(commandBuffer, 0);
        queryAddrResponse.wrap(responseBuffer, 0);
        queryPathResponse.wrap(responseBuffer, 0);
        idResponse.wrap(responseBuffer, 0);
        eventsReported.wrap(responseBuffer, 0);
        qpAttr.wrap(responseBuffer, 0);
    }

    /** Wraps {@code struct} over the command buffer after the header and clears it. */
    <T extends UcmaStruct<T>> T begin(final T struct)
    {
        return struct.wrap(commandBuffer, CommandHeader.LENGTH).clear();
    }

    /** Writes the header and the struct {@link #begin} prepared, with {@code out} bytes of response room. */
    void execute(final UcmaCommand command, final int out)
    {
        header.cmd(command.number()).in(command.inLength()).out(out);
        if (command.hasResponse())
        {
            commandBuffer.putLong(CommandHeader.LENGTH + command.responseOffset(), responseSegment.address(), HOST);
        }
        final long length = CommandHeader.LENGTH + command.inLength();
        final long written;
        try
        {
            written = Libc.write(state, fd, commandSegment, length, command.cName());
        }
        catch (final NativeCallException ex)
        {
            throw new UcmaException(command, ex.errno(), device);
        }
        if (written != length)
        {
            throw new UcmaException(command, Errno.ENODATA, device);
        }
    }
}
