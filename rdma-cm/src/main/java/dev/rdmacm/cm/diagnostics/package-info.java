/**
 * What an experimenter attaches to an {@link dev.rdmacm.cm.RdmaCm} to watch or perturb it, none of which
 * librdmacm offers: the ids' state transitions ({@link dev.rdmacm.cm.diagnostics.StateTransitionListener}),
 * the CM connections' ib_cm states ({@link dev.rdmacm.cm.diagnostics.ConnectionTransitionListener}), every
 * CM MAD on the wire ({@link dev.rdmacm.cm.diagnostics.CmMadRecorder}, a pcap with
 * {@link dev.rdmacm.cm.diagnostics.PcapCmMadRecorder}) and lost MADs on demand
 * ({@link dev.rdmacm.cm.diagnostics.CmMadFilter}). Each is a callback on the conductor's thread that sees
 * values, never an engine object.
 */
package dev.rdmacm.cm.diagnostics;
