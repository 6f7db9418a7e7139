package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every size, offset and constant of the ACM flyweights against acm.h and sa.h compiled with gcc. */
class AcmLayoutTest
{
    private static String probe(final String body)
    {
        Peers.requireFile("/usr/include/infiniband/acm.h", "ibacm / librdmacm-dev");
        return CProgram.compileAndRun("""
            #include <stdio.h>
            #include <stddef.h>
            #include <infiniband/acm.h>
            #include <infiniband/sa.h>
            int main(void) {
            """ + body + """
              return 0;
            }
            """);
    }

    @Test
    void shouldMatchHeaderLayout()
    {
        final String output = probe("""
              struct acm_hdr h;
              printf("%zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %d\\n", sizeof(struct acm_hdr),
                offsetof(struct acm_hdr, version), offsetof(struct acm_hdr, opcode),
                offsetof(struct acm_hdr, status), offsetof(struct acm_hdr, data),
                (size_t)((char *)&h.src_out - (char *)&h), (size_t)((char *)&h.src_index - (char *)&h),
                (size_t)((char *)&h.dst_index - (char *)&h),
                offsetof(struct acm_hdr, length), offsetof(struct acm_hdr, tid), ACM_MSG_HDR_LENGTH);
            """);
        assertEquals(String.format("%d %d %d %d %d %d %d %d %d %d %d%n", AcmHeader.LENGTH, AcmHeader.VERSION_OFFSET,
            AcmHeader.OPCODE_OFFSET, AcmHeader.STATUS_OFFSET, AcmHeader.DATA_OFFSET, AcmHeader.SRC_OUT_OFFSET,
            AcmHeader.SRC_INDEX_OFFSET, AcmHeader.DST_INDEX_OFFSET, AcmHeader.LENGTH_OFFSET, AcmHeader.TID_OFFSET,
            AcmHeader.LENGTH), output);
    }

    @Test
    void shouldMatchAddressEntryLayout()
    {
        final String output = probe("""
              struct acm_ep_addr_data e;
              printf("%zu %zu %zu %zu %zu %d %d %zu %zu\\n", sizeof(struct acm_ep_addr_data),
                offsetof(struct acm_ep_addr_data, flags), offsetof(struct acm_ep_addr_data, type),
                offsetof(struct acm_ep_addr_data, reserved), offsetof(struct acm_ep_addr_data, info),
                ACM_MAX_ADDRESS, ACM_MSG_EP_LENGTH, sizeof(union acm_ep_info),
                offsetof(struct acm_ep_addr_data, info.path.dgid));
            """);
        assertEquals(String.format("%d %d %d %d %d %d %d %d %d%n", AcmEpAddrData.LENGTH,
            AcmEpAddrData.FLAGS_OFFSET, AcmEpAddrData.TYPE_OFFSET, AcmEpAddrData.RESERVED_OFFSET,
            AcmEpAddrData.INFO_OFFSET, AcmEpAddrData.INFO_LENGTH, AcmEpAddrData.LENGTH, AcmEpAddrData.INFO_LENGTH,
            AcmEpAddrData.INFO_OFFSET + IbvPathRecord.DGID_OFFSET), output);
    }

    @Test
    void shouldMatchEndpointConfigAndMessageSizes()
    {
        final String output = probe("""
              printf("%zu %zu %zu %zu %zu %zu %zu %zu %d %zu %d %d\\n", sizeof(struct acm_ep_config_data),
                offsetof(struct acm_ep_config_data, dev_guid), offsetof(struct acm_ep_config_data, port_num),
                offsetof(struct acm_ep_config_data, phys_port_cnt), offsetof(struct acm_ep_config_data, rsvd),
                offsetof(struct acm_ep_config_data, pkey), offsetof(struct acm_ep_config_data, addr_cnt),
                offsetof(struct acm_ep_config_data, prov_name), ACM_MAX_PROV_NAME, sizeof(struct acm_msg),
                ACM_MSG_DATA_LENGTH, ACM_MAX_COUNTER);
            """);
        assertEquals(String.format("%d %d %d %d %d %d %d %d %d %d %d %d%n", AcmEpConfigData.LENGTH,
            AcmEpConfigData.DEV_GUID_OFFSET, AcmEpConfigData.PORT_NUM_OFFSET, AcmEpConfigData.PHYS_PORT_CNT_OFFSET,
            AcmEpConfigData.RSVD_OFFSET, AcmEpConfigData.PKEY_OFFSET, AcmEpConfigData.ADDR_CNT_OFFSET,
            AcmEpConfigData.PROV_NAME_OFFSET, AcmEpConfigData.PROV_NAME_LENGTH, AcmMessage.MAX_LENGTH,
            AcmMessage.DATA_LENGTH, AcmCounter.COUNT), output);
    }

    @Test
    void shouldMatchOpcodeStatusTypeAndFlagConstants()
    {
        final String output = probe("""
              printf("%d %d %d %d %d %d\\n", ACM_VERSION, ACM_OP_MASK, ACM_OP_RESOLVE, ACM_OP_PERF_QUERY,
                ACM_OP_EP_QUERY, ACM_OP_ACK);
              printf("%d %d %d %d %d %d %d %d %d %d\\n", ACM_STATUS_SUCCESS, ACM_STATUS_ENOMEM, ACM_STATUS_EINVAL,
                ACM_STATUS_ENODATA, ACM_STATUS_ENOTCONN, ACM_STATUS_ETIMEDOUT, ACM_STATUS_ESRCADDR,
                ACM_STATUS_ESRCTYPE, ACM_STATUS_EDESTADDR, ACM_STATUS_EDESTTYPE);
              printf("%d %d %d %d\\n", ACM_EP_INFO_NAME, ACM_EP_INFO_ADDRESS_IP, ACM_EP_INFO_ADDRESS_IP6,
                ACM_EP_INFO_PATH);
              printf("%u %u %u %u\\n", (unsigned)ACM_EP_FLAG_SOURCE, (unsigned)ACM_EP_FLAG_DEST,
                (unsigned)ACM_FLAGS_NODELAY, (unsigned)ACM_FLAGS_QUERY_SA);
              printf("%d\\n", IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY | IBV_PATH_FLAG_BIDIRECTIONAL);
              printf("%d %d %d %d %d %d %d\\n", ACM_CNTR_ERROR, ACM_CNTR_RESOLVE, ACM_CNTR_NODATA,
                ACM_CNTR_ADDR_QUERY, ACM_CNTR_ADDR_CACHE, ACM_CNTR_ROUTE_QUERY, ACM_CNTR_ROUTE_CACHE);
            """);
        final String expected = String.format("%d %d %d %d %d %d%n", AcmHeader.VERSION, AcmOp.MASK, AcmOp.RESOLVE,
            AcmOp.PERF_QUERY, AcmOp.EP_QUERY, AcmOp.ACK)
            + String.format("%d %d %d %d %d %d %d %d %d %d%n", AcmStatus.SUCCESS, AcmStatus.ENOMEM, AcmStatus.EINVAL,
            AcmStatus.ENODATA, AcmStatus.ENOTCONN, AcmStatus.ETIMEDOUT, AcmStatus.ESRCADDR, AcmStatus.ESRCTYPE,
            AcmStatus.EDESTADDR, AcmStatus.EDESTTYPE)
            + String.format("%d %d %d %d%n", AcmEpType.NAME, AcmEpType.ADDRESS_IP, AcmEpType.ADDRESS_IP6,
            AcmEpType.PATH)
            + String.format("%d %d %d %d%n", AcmEpFlags.SOURCE, AcmEpFlags.DEST, AcmEpFlags.NODELAY,
            AcmEpFlags.QUERY_SA & 0xffff_ffffL)
            + String.format("%d%n", AcmEpFlags.RESOLVED_PATH)
            + String.format("%d %d %d %d %d %d %d%n", AcmCounter.ERROR.ordinal(), AcmCounter.RESOLVE.ordinal(),
            AcmCounter.NODATA.ordinal(), AcmCounter.ADDR_QUERY.ordinal(), AcmCounter.ADDR_CACHE.ordinal(),
            AcmCounter.ROUTE_QUERY.ordinal(), AcmCounter.ROUTE_CACHE.ordinal());
        assertEquals(expected, output);
    }
}
